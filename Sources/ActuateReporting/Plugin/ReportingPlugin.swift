import Actuate
import Foundation
import Synchronization

/// A dispatcher plugin that records the outcome of every ``ReportedAction`` through a ``Reporter``, so that
/// the core's dispatch hooks feed the reporting layer.
///
/// Each completion becomes one event of the action's ``ReportedAction/reportEventType`` with these
/// properties, plus the action's own: `action`, `feature`, `session`, `requestId`, `outcome` (`success`,
/// `failure` or `cancelled`), `featureTerminated`, `durationSeconds` and, for failures, `error`. Consent and
/// sessions apply as for any event the reporter records.
///
/// ```swift
/// dispatcher.add(plugin: ReportingPlugin(reporter: reporter))
/// ```
public final class ReportingPlugin: ActionDispatchPlugin {
    private let reporter: Reporter
    /// `reported`, held here so that a dispatch reads it with one load rather than a lazy global's check.
    private let reportedTrait = ReportingPlugin.reported

    /// What each ``ReportedAction`` declares, resolved once per action type when its feature is prepared.
    static let reported = ActionTrait<ReportedActionTrait>("reported") { action in
        (action as? any ReportedAction.Type).map { ReportedActionTrait($0) }
    }

    /// Creates the plugin. Durations come from the clock of the dispatcher it is added to.
    ///
    /// - Parameter reporter: Where events are recorded.
    public init(reporter: Reporter) {
        self.reporter = reporter
    }

    /// Records: `observation`, after any redaction or enrichment plugins.
    public var stage: PluginStage { .observation }

    public func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {}

    public func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        // Only the check runs for an action that is not reported: one read of the action's trait table, through
        // the request's header, a stored property that unspecialized code reads without generic metadata.
        guard request.header.hasTrait(reportedTrait) else { return }
        record(request, outcome: outcome)
    }

    @inline(never)
    private func record<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        guard let reported = request.header.trait(reportedTrait) else { return }
        var properties = Self.standardProperties(request, outcome: outcome)
        if let duration = request.duration { properties["durationSeconds"] = .number(duration) }
        let custom = reported.properties(request.context, outcome)
        properties.merge(custom) { standard, _ in standard }
        reporter.record(type: reported.eventType, properties: properties)
    }

    private static func standardProperties<F, A>(
        _ request: ActionRequest<F, A>,
        outcome: ActionPerformOutcome
    ) -> [String: JSONValue] {
        var properties: [String: JSONValue] = [
            "action": .string(request.action.name),
            "feature": .string(request.feature.path.description),
            "session": .string(request.sessionName),
            "requestId": .number(Double(request.uniqueID)),
            "featureTerminated": .bool(outcome.terminatesFeature),
        ]
        switch AnalyticsOutcome(outcome) {
        case .success:
            properties["outcome"] = "success"
        case .cancelled:
            properties["outcome"] = "cancelled"
        case .failure(let errorDescription):
            properties["outcome"] = "failure"
            properties["error"] = .string(errorDescription)
        }
        return properties
    }
}

/// What a ``ReportedAction`` declares, read once per action type.
struct ReportedActionTrait: Sendable {
    /// The action's ``ReportedAction/reportEventType``.
    let eventType: ReportEventType
    /// The action's ``ReportedAction/reportProperties(for:outcome:)``, given the request's context.
    let properties: @Sendable (any Sendable, ActionPerformOutcome) -> [String: JSONValue]

    init<R: ReportedAction>(_ action: R.Type) {
        self.eventType = R.reportEventType
        self.properties = { context, outcome in
            // The context is always the action's own: the trait is read from a request of `R`.
            guard let context = context as? ActionContext<R.InputType> else { return [:] }
            return R.reportProperties(for: context, outcome: outcome)
        }
    }
}
