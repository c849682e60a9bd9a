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
/// dispatcher.add(observer: ReportingPlugin(reporter: reporter))
/// ```
public final class ReportingPlugin: ActionDispatchObserver {
    private struct State {
        var reportedTypes: [ObjectIdentifier: Bool] = [:]
        var startTimes: [UInt64: Duration] = [:]
    }

    private let reporter: Reporter
    private let scheduler: any ActuateScheduler
    private let state = Mutex(State())

    /// Creates the plugin.
    /// - Parameters:
    ///   - reporter: Where events are recorded.
    ///   - scheduler: The clock that measures durations.
    public init(reporter: Reporter, scheduler: any ActuateScheduler = SystemScheduler.shared) {
        self.reporter = reporter
        self.scheduler = scheduler
    }

    public func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        guard isReported(A.self) else { return }
        let start = scheduler.uptime()
        state.withLock { $0.startTimes[request.uniqueID] = start }
    }

    public func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        guard let reported = A.self as? any ReportedAction.Type, isReported(A.self) else { return }
        let end = scheduler.uptime()
        let start = state.withLock { $0.startTimes.removeValue(forKey: request.uniqueID) }
        var properties = Self.standardProperties(request, outcome: outcome)
        if let start { properties["durationSeconds"] = .number((end - start).seconds) }
        let custom = Self.customProperties(reported, context: request.context, outcome: outcome)
        properties.merge(custom) { standard, _ in standard }
        reporter.record(type: reported.reportEventType, properties: properties)
    }

    /// The number of reported actions that began and have not completed.
    public var inFlightCount: Int {
        state.withLock { $0.startTimes.count }
    }

    private func isReported<A: Action>(_ action: A.Type) -> Bool {
        let id = ObjectIdentifier(action)
        if let known = state.withLock({ $0.reportedTypes[id] }) { return known }
        let reported = action is any ReportedAction.Type
        state.withLock { $0.reportedTypes[id] = reported }
        return reported
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

    private static func customProperties<R: ReportedAction, Input: Loggable>(
        _ action: R.Type,
        context: ActionContext<Input>,
        outcome: ActionPerformOutcome
    ) -> [String: JSONValue] {
        guard let context = context as? ActionContext<R.InputType> else { return [:] }
        return action.reportProperties(for: context, outcome: outcome)
    }
}
