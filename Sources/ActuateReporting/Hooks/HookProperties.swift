import Actuate
import Foundation

/// Builders for the properties the hooks share, so that every hook describes sources and outcomes alike.
enum HookProperties {
    /// `outcome` and, for failures, `error`, classified by ``ActionPerformOutcome/errorDescription``.
    static func outcome(_ outcome: ActionPerformOutcome) -> [String: JSONValue] {
        if outcome.isCancellation { return [ReportEventKey.outcome: "cancelled"] }
        guard let error = outcome.errorDescription else { return [ReportEventKey.outcome: "success"] }
        return [ReportEventKey.outcome: "failure", ReportEventKey.error: .string(error)]
    }

    /// `outcome` and `error` for the outcome a caller receives.
    static func outcome(_ outcome: ActionOutcome) -> [String: JSONValue] {
        switch outcome {
        case .success: self.outcome(ActionPerformOutcome.success)
        case .failure(let error): self.outcome(ActionPerformOutcome.failure(error: error))
        }
    }

    /// `source` as a kind name and, for continued activities, `activityType`.
    static func source(_ source: ActionSource) -> [String: JSONValue] {
        switch source {
        case .application: [ReportEventKey.source: .string(ArrivalSource.application.rawValue)]
        case .openURL: [ReportEventKey.source: .string(ArrivalSource.url.rawValue)]
        case .intent: [ReportEventKey.source: .string(ArrivalSource.intent.rawValue)]
        case .continueActivity(let type):
            [
                ReportEventKey.source: .string(ArrivalSource.activity.rawValue),
                ReportEventKey.activityType: .string(type),
            ]
        }
    }

    /// An analytics attribute as JSON, or nil when it must not be stored: ``AnalyticsValue/redacted`` values,
    /// and numbers JSON cannot carry (NaN and infinities).
    static func json(_ value: AnalyticsValue) -> JSONValue? {
        switch value {
        case .string(let text): .string(text)
        case .int(let number): .number(Double(number))
        case .double(let number): number.isFinite ? .number(number) : nil
        case .bool(let flag): .bool(flag)
        case .date(let date): .string(date.formatted(.iso8601))
        case .strings(let texts): .array(texts.map { .string($0) })
        case .redacted: nil
        }
    }

    /// Whether a string flag, such as a query item's value, says yes (`true`, `yes` or `1`, in any case).
    static func isTrue(_ text: String?) -> Bool {
        guard let text = text?.lowercased() else { return false }
        return text == "true" || text == "yes" || text == "1"
    }
}

/// How a user arrived at an action: the kind of its `ActionSource`, as events and statistics name it.
package enum ArrivalSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// The app's own code (`ActionSource.application`).
    case application
    /// A URL the app was asked to open (`ActionSource.openURL`).
    case url = "openURL"
    /// An activity the system asked the app to continue (`ActionSource.continueActivity(type:)`).
    case activity = "continueActivity"
    /// A system intent (`ActionSource.intent`).
    case intent
}
