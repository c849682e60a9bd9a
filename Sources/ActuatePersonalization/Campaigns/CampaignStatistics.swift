import ActuateReporting
import Foundation

/// Campaign statistics computed from recorded events: lift against control for a goal.
///
/// ```swift
/// let lift = try CampaignStatistics.lift(campaignID: "summer", goal: .purchase, store: store)
/// print(lift)
/// // summer, purchase: test 30/100 (30.0%, 95% CI 21.9%–39.6%), control 20/100 (20.0%, 95% CI 13.3%–28.9%),
/// // lift +50.0% (95% CI −8.4% to +145.6%): not distinguishable yet; 294 visitors per group would detect it
/// // (194 more)
/// ```
///
/// See ``CampaignLift`` for the definitions and `RateComparison` (ActuateReporting) for the methods behind the intervals, the
/// verdict and the visitors needed.
public enum CampaignStatistics {
    /// The lift of one campaign, from events in any order.
    /// - Parameters:
    ///   - campaignID: The campaign.
    ///   - goal: The goal.
    ///   - events: The events.
    /// - Returns: The figures; see ``CampaignLift`` for the definitions.
    package static func lift<Events: Sequence<ReportEvent>>(
        campaignID: String,
        goal: CampaignGoal,
        events: Events
    ) -> CampaignLift {
        lifts(goal: goal, events: events).first { $0.campaignID == campaignID }
            ?? CampaignLift(
                campaignID: campaignID,
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
    package static func lifts<Events: Sequence<ReportEvent>>(goal: CampaignGoal, events: Events) -> [CampaignLift] {
        var accumulator = CampaignLiftAccumulator(goal: goal)
        for event in events { accumulator.add(event) }
        return accumulator.finish()
    }

    /// The lift of one campaign, from everything pending in a store (not its dead letters).
    /// - Parameters:
    ///   - campaignID: The campaign.
    ///   - goal: The goal.
    ///   - store: The store to read, without removing anything.
    /// - Returns: The figures.
    /// - Throws: `storeFailed(operation:reason:)` when the store cannot be
    ///   read.
    public static func lift(
        campaignID: String,
        goal: CampaignGoal,
        store: any EventStore
    ) throws(ReportingError) -> CampaignLift {
        let events: [ReportEvent]
        do {
            events = try store.fetch(count: try store.count(), maxBytes: Int.max / 2)
        } catch {
            throw .storeFailed(operation: "read events for campaign lift", reason: String(describing: error))
        }
        return lift(campaignID: campaignID, goal: goal, events: events)
    }
}
