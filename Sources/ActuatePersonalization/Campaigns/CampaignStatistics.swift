import ActuateReporting
import Foundation

/// Campaign statistics computed from recorded events: lift against control for a goal.
///
/// ```swift
/// let lift = try CampaignStatistics.lift(campaignId: "summer", goal: .purchase, store: store)
/// print(lift)   // summer, purchase: test 30/100 (30.0%), control 20/100 (20.0%), lift +50.0%
/// ```
public enum CampaignStatistics {
    /// The lift of one campaign, from events in any order.
    /// - Parameters:
    ///   - campaignId: The campaign.
    ///   - goal: The goal.
    ///   - events: The events.
    /// - Returns: The figures; see ``CampaignLift`` for the definitions.
    public static func lift<Events: Sequence<ReportEvent>>(
        campaignId: String,
        goal: CampaignGoal,
        events: Events
    ) -> CampaignLift {
        lifts(goal: goal, events: events).first { $0.campaignId == campaignId }
            ?? CampaignLift(
                campaignId: campaignId,
                goal: goal,
                testVisitors: 0,
                testConversions: 0,
                controlVisitors: 0,
                controlConversions: 0
            )
    }

    /// The lift of every campaign with an impression, sorted by campaign id, from events in any order.
    /// - Parameters:
    ///   - goal: The goal.
    ///   - events: The events.
    /// - Returns: The figures per campaign.
    public static func lifts<Events: Sequence<ReportEvent>>(goal: CampaignGoal, events: Events) -> [CampaignLift] {
        var firstImpressions: [String: [String: (date: Date, isControl: Bool)]] = [:]
        var goalDates: [String: [Date]] = [:]
        for event in events {
            if goal.isReached(by: event) {
                goalDates[event.anonymousID, default: []].append(event.timestamp)
            }
            guard let (campaignId, isControl) = impression(in: event) else { continue }
            if let earlier = firstImpressions[campaignId]?[event.anonymousID], earlier.date <= event.timestamp {
                continue
            }
            firstImpressions[campaignId, default: [:]][event.anonymousID] = (event.timestamp, isControl)
        }
        return firstImpressions.keys.sorted().map { campaignId in
            var lift = CampaignLift(
                campaignId: campaignId,
                goal: goal,
                testVisitors: 0,
                testConversions: 0,
                controlVisitors: 0,
                controlConversions: 0
            )
            for (visitor, first) in firstImpressions[campaignId] ?? [:] {
                let converted = goalDates[visitor]?.contains { $0 >= first.date } ?? false
                if first.isControl {
                    lift.controlVisitors += 1
                    if converted { lift.controlConversions += 1 }
                } else {
                    lift.testVisitors += 1
                    if converted { lift.testConversions += 1 }
                }
            }
            return lift
        }
    }

    /// The lift of one campaign, from everything pending in a store (not its dead letters).
    /// - Parameters:
    ///   - campaignId: The campaign.
    ///   - goal: The goal.
    ///   - store: The store to read, without removing anything.
    /// - Returns: The figures.
    /// - Throws: `storeFailed(operation:reason:)` when the store cannot be
    ///   read.
    public static func lift(
        campaignId: String,
        goal: CampaignGoal,
        store: any EventStore
    ) throws(ReportingError) -> CampaignLift {
        let events: [ReportEvent]
        do {
            events = try store.fetch(count: try store.count(), maxBytes: Int.max / 2)
        } catch {
            throw .storeFailed(operation: "read events for campaign lift", reason: String(describing: error))
        }
        return lift(campaignId: campaignId, goal: goal, events: events)
    }

    /// The campaign id and group of an impression event, or nil for other events.
    private static func impression(in event: ReportEvent) -> (String, Bool)? {
        guard event.properties[ReportEventKey.contentSource] == .string(ContentSource.campaign.rawValue),
            let campaignId = event.properties[ReportEventKey.actionId]?.stringValue
        else { return nil }
        switch event.type {
        case ReportEventType.executed.rawValue: return (campaignId, false)
        case CampaignEventType.controlImpression.rawValue: return (campaignId, true)
        default: return nil
        }
    }
}
