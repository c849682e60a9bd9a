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
    private let reporter: Reporter
    /// Whether each action type that completed so far is a ``ReportedAction``.
    private let reportedTypes = Mutex<[ObjectIdentifier: Bool]>([:])
    /// Recent answers of ``reportedTypes``, read without a lock: slot `i` holds the address of an action type
    /// that maps to it, with ``answeredFlag`` set and ``reportedFlag`` set when it is reported; 0 when empty.
    /// Type metadata is at least 8-byte aligned, so an address leaves both flag bits free.
    private let recentAnswers = AtomicWords(count: 16)
    private static let answeredFlag: UInt = 0b10
    private static let reportedFlag: UInt = 0b01

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
        // Only the check runs for an action that is not reported: it needs no metadata of the request's type.
        guard isReported(A.self) else { return }
        record(request, outcome: outcome)
    }

    @inline(never)
    private func record<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        guard let reported = A.self as? any ReportedAction.Type else { return }
        var properties = Self.standardProperties(request, outcome: outcome)
        if let duration = request.duration { properties["durationSeconds"] = .number(duration) }
        let custom = Self.customProperties(reported, context: request.context, outcome: outcome)
        properties.merge(custom) { standard, _ in standard }
        reporter.record(type: reported.reportEventType, properties: properties)
    }

    private func isReported<A: Action>(_ action: A.Type) -> Bool {
        let id = ObjectIdentifier(action)
        let address = UInt(bitPattern: id)
        let slot = Int(truncatingIfNeeded: address >> 4) & (recentAnswers.count - 1)
        let recent = recentAnswers.load(at: slot)
        if recent & ~(Self.answeredFlag | Self.reportedFlag) == address, recent & Self.answeredFlag != 0 {
            return recent & Self.reportedFlag != 0
        }
        let reported: Bool
        if let known = reportedTypes.withLock({ $0[id] }) {
            reported = known
        } else {
            reported = action is any ReportedAction.Type
            reportedTypes.withLock { $0[id] = reported }
        }
        recentAnswers.store(address | Self.answeredFlag | (reported ? Self.reportedFlag : 0), at: slot)
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
