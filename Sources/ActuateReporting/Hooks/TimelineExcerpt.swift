import Actuate
import Foundation

/// Builds the excerpt of the timeline that travels with a failed action's `error` event.
///
/// Each entry is a JSON object: `requestId`, `action`, `feature` (path), `input` (the input's
/// `loggingDescription`), `source`, `userInitiated`, `date` (ISO 8601), `outcome` (`success`, `failure`,
/// `cancelled`, or `pending` for an action that has not completed), `featureTerminated` and, once complete,
/// `durationSeconds`. Error messages of earlier entries are left out: only the failing action's own error is
/// sent, as the event's `message`, classified by `ActionPerformOutcome.errorDescription`.
struct TimelineExcerpt: Equatable {
    /// The entries, oldest first.
    var entries: [JSONValue]
    /// How many of the session's most recent entries the byte cap left out.
    var omitted: Int

    /// The excerpt of `snapshot` for the session `sessionName` under `policy`.
    init(_ snapshot: [TimelineEntry], sessionName: String, policy: TimelineExcerptPolicy) {
        let recent = Array(snapshot.filter { $0.sessionName == sessionName }.suffix(max(0, policy.maxEntries)))
        var kept: [JSONValue] = []
        var bytes = 2  // the array's brackets
        let encoder = JSONEncoder()
        for entry in recent.reversed() {
            let value = Self.json(entry)
            let size = ((try? encoder.encode(value))?.count ?? Int.max / 4) + (kept.isEmpty ? 0 : 1)
            if bytes + size > policy.maxBytes { break }
            kept.append(value)
            bytes += size
        }
        entries = kept.reversed()
        omitted = recent.count - kept.count
    }

    /// One timeline entry as JSON, without error messages.
    static func json(_ entry: TimelineEntry) -> JSONValue {
        var object: [String: JSONValue] = [
            ReportEventKey.requestID: .number(Double(entry.requestID)),
            ReportEventKey.action: .string(entry.actionName),
            ReportEventKey.feature: .string(entry.featurePath),
            ReportEventKey.input: .string(entry.inputDescription),
            ReportEventKey.userInitiated: .bool(entry.userInitiated),
            "date": .string(entry.startDate.formatted(.iso8601)),
        ]
        object.merge(HookProperties.source(entry.source)) { _, source in source }
        let (outcome, terminated): (String, Bool) =
            switch entry.outcome {
            case nil: ("pending", false)
            case .success: ("success", false)
            case .successWithFeatureTermination: ("success", true)
            case .failure: ("failure", false)
            case .failureWithFeatureTermination: ("failure", true)
            case .cancelled: ("cancelled", false)
            }
        object[ReportEventKey.outcome] = .string(outcome)
        object[ReportEventKey.featureTerminated] = .bool(terminated)
        if let duration = entry.duration, duration.isFinite {
            object[ReportEventKey.durationSeconds] = .number(duration)
        }
        return .object(object)
    }
}
