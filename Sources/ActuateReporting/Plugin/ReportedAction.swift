import Actuate

/// An action whose outcomes the reporting layer records, through ``ReportingPlugin``.
///
/// Conforming is the opt-in: actions that don't conform are never recorded.
///
/// ```swift
/// final class CheckoutAction: Action, ReportedAction {
///     static var reportEventType: ReportEventType { "checkout" }
///     static func reportProperties(for context: ActionContext<Cart>, outcome: ActionPerformOutcome)
///         -> [String: JSONValue] {
///         ["items": .number(Double(context.input.count))]
///     }
///     ...
/// }
/// ```
public protocol ReportedAction: Action {
    /// The type of the event recorded when the action completes. The default is `action`.
    static var reportEventType: ReportEventType { get }

    /// Extra properties for one completion. The default adds none.
    ///
    /// Values must not carry private data: the event is stored and uploaded.
    static func reportProperties(
        for context: ActionContext<InputType>,
        outcome: ActionPerformOutcome
    )
        -> [String: JSONValue]
}

extension ReportedAction {
    public static var reportEventType: ReportEventType { "action" }

    public static func reportProperties(
        for context: ActionContext<InputType>,
        outcome: ActionPerformOutcome
    ) -> [String: JSONValue] {
        [:]
    }
}
