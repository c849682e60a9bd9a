import ActuateReporting
import Foundation

/// How much more often users who were shown a campaign reached a goal than users in its control group.
///
/// Each visitor (by anonymous id) belongs to the group of their first impression of the campaign: an
/// `executed` event for the test group, a `CampaignEventType.controlImpression` for the control group. A
/// visitor converts when they reach the goal at or after that first impression. The rate of a group is its
/// converted visitors over its visitors, and lift is (test − control) / control.
///
/// Every figure comes with its uncertainty (`comparison`, a `RateComparison` of ActuateReporting): each group's
/// rate has Wilson's 95% score interval; the lift has a 95% interval by Katz's log method (the delta method on the
/// log of the rate ratio, with 0.5 added to every cell when a group has no conversion or only conversions); the
/// ``verdict`` is better or worse only when that interval leaves out zero, and otherwise "not distinguishable
/// yet"; and `visitorsPerGroupNeeded` is how many visitors per group a two-sided test at α = 0.05 needs to
/// detect the observed rates with 80% power. So 30 of 100 against 20 of 100 reads "lift +50.0% (95% CI −8.4% to
/// +145.6%): not distinguishable yet", not "+50%".
public struct CampaignLift: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The campaign.
    package var campaignID: String
    /// The goal.
    package var goal: CampaignGoal
    /// Visitors whose first impression was a shown campaign.
    public var testVisitors: Int
    /// Test visitors who reached the goal after their first impression.
    package var testConversions: Int
    /// Visitors whose first impression was a control impression.
    public var controlVisitors: Int
    /// Control visitors who reached the goal after their first impression.
    package var controlConversions: Int
    /// Visitors and conversions per UTC day (or hour), oldest first; only intervals with an event are listed.
    package var series: [CampaignSeriesPoint] = []

    /// Creates figures.
    /// - Parameters:
    ///   - campaignID: The campaign.
    ///   - goal: The goal.
    ///   - testVisitors: Visitors in the test group.
    ///   - testConversions: Test visitors who reached the goal.
    ///   - controlVisitors: Visitors in the control group.
    ///   - controlConversions: Control visitors who reached the goal.
    init(
        campaignID: String,
        goal: CampaignGoal,
        testVisitors: Int,
        testConversions: Int,
        controlVisitors: Int,
        controlConversions: Int
    ) {
        self.campaignID = campaignID
        self.goal = goal
        self.testVisitors = testVisitors
        self.testConversions = testConversions
        self.controlVisitors = controlVisitors
        self.controlConversions = controlConversions
    }

    /// Test conversions over test visitors, or nil with no test visitors.
    package var testRate: Double? { Self.ratio(testConversions, testVisitors) }

    /// Control conversions over control visitors, or nil with no control visitors.
    package var controlRate: Double? { Self.ratio(controlConversions, controlVisitors) }

    /// (test − control) / control, or nil when either rate is unknown or the control rate is zero.
    public var lift: Double? {
        guard let testRate, let controlRate, controlRate > 0 else { return nil }
        return (testRate - controlRate) / controlRate
    }

    /// The groups compared: rate intervals, the lift's interval, the verdict and the visitors needed.
    package var comparison: RateComparison {
        RateComparison(
            testSuccesses: testConversions,
            testTrials: testVisitors,
            controlSuccesses: controlConversions,
            controlTrials: controlVisitors
        )
    }

    /// Wilson's 95% interval of ``testRate``, or nil with no test visitors.
    package var testRateInterval: RateInterval? { comparison.testRateInterval }

    /// Wilson's 95% interval of ``controlRate``, or nil with no control visitors.
    package var controlRateInterval: RateInterval? { comparison.controlRateInterval }

    /// The 95% interval of ``lift`` (Katz's log method), or nil when a group is empty. It exists even when the
    /// control rate is zero and ``lift`` is nil.
    package var liftInterval: RateInterval? { comparison.relativeDifferenceInterval }

    /// Better, worse, or not distinguishable yet: whether `liftInterval` leaves out zero.
    public var verdict: RateComparison.Verdict { comparison.verdict }

    /// Visitors per group that would detect the observed difference at α = 0.05 (two-sided) with 80% power, or
    /// nil when a group is empty or the rates are equal.
    package var visitorsPerGroupNeeded: Int? { comparison.membersPerGroupNeeded }

    /// For example `summer, purchase: test 30/100 (30.0%, 95% CI 21.9%–39.6%), control 20/100 (20.0%, 95% CI
    /// 13.3%–28.9%), lift +50.0% (95% CI −8.4% to +145.6%): not distinguishable yet; 294 visitors per group would
    /// detect it (194 more)`.
    public var description: String {
        let comparison = comparison
        let test = "test \(testConversions)/\(testVisitors) (\(Self.rate(testRate, comparison.testRateInterval)))"
        let control =
            "control \(controlConversions)/\(controlVisitors) "
            + "(\(Self.rate(controlRate, comparison.controlRateInterval)))"
        var text = "\(campaignID), \(goal): \(test), \(control), lift \(lift.map(Self.signedPercent) ?? "n/a")"
        if let interval = comparison.relativeDifferenceInterval {
            text += " (95% CI \(Self.signedPercent(interval.lower)) to \(Self.signedPercent(interval.upper)))"
        }
        text += ": \(comparison.verdict)"
        if comparison.verdict == .notDistinguishableYet, let needed = comparison.membersPerGroupNeeded {
            let more = comparison.additionalMembersPerGroupNeeded ?? 0
            text += "; \(needed) visitors per group would detect it (\(more) more)"
        }
        return text
    }

    private static func rate(_ value: Double?, _ interval: RateInterval?) -> String {
        guard let interval else { return percent(value) }
        return "\(percent(value)), 95% CI \(interval)"
    }

    private static func signedPercent(_ value: Double) -> String {
        (value >= 0 ? "+" : "−") + percent(abs(value))
    }

    private static func ratio(_ numerator: Int, _ denominator: Int) -> Double? {
        denominator > 0 ? Double(numerator) / Double(denominator) : nil
    }

    private static func percent(_ value: Double?) -> String {
        guard let value else { return "n/a" }
        return String(format: "%.1f%%", value * 100)
    }

    private enum CodingKeys: String, CodingKey {
        case campaignID = "campaignId"
        case goal, testVisitors, testConversions, controlVisitors, controlConversions, series
        case testRate, testRateInterval, controlRate, controlRateInterval, lift, liftInterval, verdict
        case visitorsPerGroupNeeded, additionalVisitorsPerGroupNeeded
    }

    /// Decodes the counts and the series; the derived figures are computed from the counts again.
    /// - Parameter decoder: The decoder.
    /// - Throws: A decoding error when a count is missing or of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        campaignID = try container.decode(String.self, forKey: .campaignID)
        goal = try container.decode(CampaignGoal.self, forKey: .goal)
        testVisitors = try container.decode(Int.self, forKey: .testVisitors)
        testConversions = try container.decode(Int.self, forKey: .testConversions)
        controlVisitors = try container.decode(Int.self, forKey: .controlVisitors)
        controlConversions = try container.decode(Int.self, forKey: .controlConversions)
        series = try container.decodeIfPresent([CampaignSeriesPoint].self, forKey: .series) ?? []
    }

    /// Encodes the counts, the series, and the derived figures (rates, intervals, lift, verdict, visitors needed)
    /// so that other tools need not recompute them.
    /// - Parameter encoder: The encoder.
    /// - Throws: An encoding error.
    public func encode(to encoder: any Encoder) throws {
        let comparison = comparison
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(campaignID, forKey: .campaignID)
        try container.encode(goal, forKey: .goal)
        try container.encode(testVisitors, forKey: .testVisitors)
        try container.encode(testConversions, forKey: .testConversions)
        try container.encode(controlVisitors, forKey: .controlVisitors)
        try container.encode(controlConversions, forKey: .controlConversions)
        try container.encode(series, forKey: .series)
        try container.encodeIfPresent(testRate, forKey: .testRate)
        try container.encodeIfPresent(comparison.testRateInterval, forKey: .testRateInterval)
        try container.encodeIfPresent(controlRate, forKey: .controlRate)
        try container.encodeIfPresent(comparison.controlRateInterval, forKey: .controlRateInterval)
        try container.encodeIfPresent(lift, forKey: .lift)
        try container.encodeIfPresent(comparison.relativeDifferenceInterval, forKey: .liftInterval)
        try container.encode(comparison.verdict, forKey: .verdict)
        try container.encodeIfPresent(comparison.membersPerGroupNeeded, forKey: .visitorsPerGroupNeeded)
        try container.encodeIfPresent(
            comparison.additionalMembersPerGroupNeeded,
            forKey: .additionalVisitorsPerGroupNeeded
        )
    }
}
