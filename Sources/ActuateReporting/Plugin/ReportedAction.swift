import Actuate

/// An action whose outcomes the reporting layer records, through ``ReportingPlugin``.
///
/// Conforming is the opt-in: actions that don't conform are never recorded.
///
/// ```swift
/// final class PlaceOrderAction: Action, ReportedAction {
///     typealias InputType = Basket
///
///     static var reportEventType: ReportEventType { "order_placed" }
///     static func reportProperties(for context: ActionContext<Basket>, outcome: ActionPerformOutcome)
///         -> [String: JSONValue] {
///         ["items": .number(Double(context.input.items.count))]
///     }
///
///     static func perform(context: ActionContext<Basket>, presenter: NoPresenter, completion: Completion)
///         -> Completion.Status {
///         completion.completedSync(.success)
///     }
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
