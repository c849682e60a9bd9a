/// An action whose body runs on the main actor and drives a `@MainActor` presenter directly.
///
/// Named `UIAction` after what it is for; in files that also import UIKit, write `Actuate.UIAction`.
///
/// ```swift
/// @MainActor final class NoticeView { var text = ""; func show(_ text: String) { self.text = text } }
///
/// final class ShowNoticeAction: UIAction {
///     typealias InputType = String
///     typealias PresenterType = NoticeView
///
///     @MainActor static func perform(context: ActionContext<String>, presenter: NoticeView) async throws
///         -> ActionPerformOutcome {
///         presenter.show(context.input)
///         return .success
///     }
/// }
/// ```
///
/// Its queue is the main queue. The body may be performed from any thread; the dispatcher hops to the main
/// actor, which on Linux is drained by the main executor of an `async` `main` (or `dispatchMain()`).
/// Cancellation and the serial guarantee are the same as for ``AsyncAction``.
public protocol UIAction: Action {
    /// Performs the action on the main actor.
    @MainActor
    static func perform(
        context: ActionContext<InputType>,
        presenter: PresenterType
    ) async throws -> ActionPerformOutcome
}

extension UIAction {
    public static func perform(
        context: ActionContext<InputType>,
        presenter: PresenterType,
        completion: Completion
    ) -> Completion.Status {
        AsyncBodyRunner.startOnMainActor(context: context, completion: completion) { @MainActor in
            try await perform(context: context, presenter: presenter)
        }
    }
}
