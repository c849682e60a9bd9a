import Foundation

/// How much more often users who were shown a campaign reached a goal than users in its control group.
///
/// Each visitor (by anonymous id) belongs to the group of their first impression of the campaign: an
/// `executed` event for the test group, a ``CampaignEventType/controlImpression`` for the control group. A
/// visitor converts when they reach the goal at or after that first impression. The rate of a group is its
/// converted visitors over its visitors, and lift is (test − control) / control.
public struct CampaignLift: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The campaign.
    public var campaignId: String
    /// The goal.
    public var goal: CampaignGoal
    /// Visitors whose first impression was a shown campaign.
    public var testVisitors: Int
    /// Test visitors who reached the goal after their first impression.
    public var testConversions: Int
    /// Visitors whose first impression was a control impression.
    public var controlVisitors: Int
    /// Control visitors who reached the goal after their first impression.
    public var controlConversions: Int

    /// Creates figures.
    /// - Parameters:
    ///   - campaignId: The campaign.
    ///   - goal: The goal.
    ///   - testVisitors: Visitors in the test group.
    ///   - testConversions: Test visitors who reached the goal.
    ///   - controlVisitors: Visitors in the control group.
    ///   - controlConversions: Control visitors who reached the goal.
    public init(
        campaignId: String,
        goal: CampaignGoal,
        testVisitors: Int,
        testConversions: Int,
        controlVisitors: Int,
        controlConversions: Int
    ) {
        self.campaignId = campaignId
        self.goal = goal
        self.testVisitors = testVisitors
        self.testConversions = testConversions
        self.controlVisitors = controlVisitors
        self.controlConversions = controlConversions
    }

    /// Test conversions over test visitors, or nil with no test visitors.
    public var testRate: Double? { Self.ratio(testConversions, testVisitors) }

    /// Control conversions over control visitors, or nil with no control visitors.
    public var controlRate: Double? { Self.ratio(controlConversions, controlVisitors) }

    /// (test − control) / control, or nil when either rate is unknown or the control rate is zero.
    public var lift: Double? {
        guard let testRate, let controlRate, controlRate > 0 else { return nil }
        return (testRate - controlRate) / controlRate
    }

    /// For example `summer, purchase: test 30/100 (30.0%), control 20/100 (20.0%), lift +50.0%`.
    public var description: String {
        let test = "test \(testConversions)/\(testVisitors) (\(Self.percent(testRate)))"
        let control = "control \(controlConversions)/\(controlVisitors) (\(Self.percent(controlRate)))"
        let lift = lift.map { ($0 >= 0 ? "+" : "") + Self.percent($0) } ?? "n/a"
        return "\(campaignId), \(goal): \(test), \(control), lift \(lift)"
    }

    private static func ratio(_ numerator: Int, _ denominator: Int) -> Double? {
        denominator > 0 ? Double(numerator) / Double(denominator) : nil
    }

    private static func percent(_ value: Double?) -> String {
        guard let value else { return "n/a" }
        return String(format: "%.1f%%", value * 100)
    }
}
