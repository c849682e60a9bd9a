import ActuateReporting
import Foundation

/// What a campaign is meant to make users do, for measuring its lift.
public enum CampaignGoal: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A tracked action with this name (``CampaignContext/trackAction(_:)``).
    case action(String)
    /// Any purchase.
    case purchase
    /// Any event of this type.
    case eventType(ReportEventType)

    /// Whether an event reaches the goal.
    /// - Parameter event: The event.
    /// - Returns: True when it does.
    func isReached(by event: ReportEvent) -> Bool {
        switch self {
        case .action(let name):
            event.type == CampaignEventType.userAction.rawValue
                && event.properties[CampaignEventKey.name] == .string(name)
        case .purchase:
            event.type == ReportEventType.purchase.rawValue
        case .eventType(let type):
            event.type == type.rawValue
        }
    }

    /// For example `action "Add to Cart"`.
    public var description: String {
        switch self {
        case .action(let name): "action \"\(name)\""
        case .purchase: "purchase"
        case .eventType(let type): "event \(type.rawValue)"
        }
    }
}
