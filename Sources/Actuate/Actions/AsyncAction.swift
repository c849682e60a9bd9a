/// An action whose body is an `async throws` function.
///
/// The framework maps the body onto the completion requirement: the returned outcome completes it, a thrown
/// error becomes ``ActionPerformOutcome/failure(error:)``, and it completes exactly once by construction.
///
/// <!-- readme: repeats Sources/Actuate/Actuate.docc/DefiningActions.md -->
/// ```swift
/// final class FetchRecommendationsAction: AsyncAction {
///     typealias InputType = String
///     typealias PresenterType = any ShopPresenter
///
///     static func perform(context: ActionContext<String>, presenter: any ShopPresenter) async throws
///         -> ActionPerformOutcome {
///         let products = try await context.dependency(RecommendationServiceKey.self).recommendations(after: context.input)
///         presenter.showRecommendations(products)
///         return .success
///     }
/// }
/// ```
///
/// **Serial means serial.** The body starts on ``Action/queue`` and resumes there after every suspension, and
/// bodies of async actions that share a queue never interleave: the next one starts only after the previous
/// one has completed, in the order they were performed. An action performed from within a body (directly,
/// or through any chain of nested actions on any queues) is nested in it and never waits for the queue of a
/// body it is nested in: a body that awaits an action which awaits an action on the body's own queue
/// completes rather than waiting for itself.
///
/// **Which task runs it.** An `await`ed perform runs the body in the awaiting task itself, moved onto the queue
/// for the body's duration: it keeps that task's priority and task-local values, and no task is created. A
/// perform with a completion callback starts the body in a task of its own.
///
/// **Cancellation.** Cancelling the task that awaits `perform` cancels the body's task. A body cancelled
/// before it starts does not run; one that throws `CancellationError` ends with
/// ``ActionCancellationError``; one that ignores cancellation completes normally.
public protocol AsyncAction: Action {
    /// Performs the action.
    ///
    /// - Returns: How the action ended.
    /// - Throws: Any error, which becomes a failure outcome.
    static func perform(
        context: ActionContext<InputType>,
        presenter: PresenterType
    ) async throws -> ActionPerformOutcome
}

extension AsyncAction {
    @inlinable
    public static func perform(
        context: ActionContext<InputType>,
        presenter: PresenterType,
        completion: Completion
    ) -> Completion.Status {
        AsyncBodyRunner.start(Self.self, context: context, presenter: presenter, completion: completion)
    }
}
