import ActuateCore

/// An action the system can perform as an intent, such as a Siri shortcut.
///
/// Its input goes into the intent's parameters and comes back from them through the same
/// `RouteParametersCodable` conformance that URL routes use, so an action that has a route needs nothing more.
/// ``IntentDonationPlugin`` donates an ``IntentDescriptor`` each time the action succeeds, and ``IntentRouter``
/// performs it when the system hands the intent back, with `ActionSource.intent` as its source.
///
/// ```swift
/// final class RebookAction: IntentAction {
///     typealias InputType = String   // the booking's identifier
///     static var suggestedInvocationPhrase: String? { "Book my table again" }
///     static func intentTitle(for input: String) -> String { "Rebook \(input)" }
///
///     static func perform(context: ActionContext<String>, presenter: NoPresenter, completion: Completion)
///         -> Completion.Status {
///         completion.completedSync(.success)
///     }
/// }
/// ```
public protocol IntentAction: Action where InputType: RouteParametersCodable {
    /// The intent's title for one input, as Siri and the Shortcuts app show it.
    ///
    /// - Parameter input: The input the action was performed with.
    /// - Returns: The title; by default the action's `Action.name`.
    static func intentTitle(for input: InputType) -> String
}

extension IntentAction {
    /// The action's `Action.name`.
    public static func intentTitle(for input: InputType) -> String { name }
}
