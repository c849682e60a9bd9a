import Foundation

/// A test group's rate against a control group's: the relative difference with its 95% interval, a verdict, and
/// how many members per group a test needs to tell the observed difference from noise.
///
/// Methods:
/// - Each group's rate carries Wilson's 95% score interval (`RateInterval/wilson(successes:trials:)`).
/// - The relative difference is test rate / control rate − 1. Its interval is Katz's log method (the delta method
///   on the log of the rate ratio; Katz et al. 1978, as in Altman et al., "Statistics with Confidence", 2000):
///   log(r₁/r₂) ± 1.96·√(1/x₁ − 1/n₁ + 1/x₂ − 1/n₂), then exponentiated, minus 1. When a group has no success or
///   only successes, 0.5 is added to every cell of the 2×2 table first (Haldane–Anscombe), so the interval stays
///   finite.
/// - The verdict is ``Verdict/better`` when the whole interval is above zero, ``Verdict/worse`` when it is
///   below, and ``Verdict/notDistinguishableYet`` otherwise, so about 5% of comparisons of two equal rates call
///   a difference.
/// - The members needed per group are those a two-sided test at α = 0.05 needs to detect the observed rates
///   with 80% power (the normal-approximation formula for two proportions, Fleiss et al. 2003, §4.2, without
///   continuity correction): n = (z₀.₉₇₅·√(2p̄(1−p̄)) + z₀.₈·√(p₁(1−p₁) + p₂(1−p₂)))² / (p₁ − p₂)².
///
/// For 30 of 100 test members against 20 of 100 control members, the relative difference is 0.5 with the interval
/// −8.4% … +145.6%, the verdict ``Verdict/notDistinguishableYet``, and 294 members per group would detect it.
public struct RateComparison: Sendable, Hashable, Codable {
    /// What a comparison shows.
    public enum Verdict: String, Sendable, Hashable, Codable, CustomStringConvertible {
        /// The test rate is higher: the 95% interval of the relative difference lies above zero.
        case better
        /// The test rate is lower: the 95% interval of the relative difference lies below zero.
        case worse
        /// The interval holds zero, or a group is empty.
        case notDistinguishableYet

        /// `better`, `worse` or `not distinguishable yet`.
        public var description: String {
            switch self {
            case .better: "better"
            case .worse: "worse"
            case .notDistinguishableYet: "not distinguishable yet"
            }
        }
    }

    /// The one-sided normal quantile for 80% power, z₀.₈.
    package static let z80 = 0.841_621_233_572_914_3

    /// The most members per group this reports; a larger need (a tiny observed difference) is reported as nil.
    package static let maxMembersPerGroup = 1_000_000_000_000

    /// Successes in the test group.
    package let testSuccesses: Int
    /// Members of the test group.
    package let testTrials: Int
    /// Successes in the control group.
    package let controlSuccesses: Int
    /// Members of the control group.
    package let controlTrials: Int
    /// Wilson's 95% interval of the test rate, or nil for an empty group.
    package let testRateInterval: RateInterval?
    /// Wilson's 95% interval of the control rate, or nil for an empty group.
    package let controlRateInterval: RateInterval?
    /// test rate / control rate − 1, or nil when a group is empty or the control rate is zero.
    package let relativeDifference: Double?
    /// The 95% interval of the relative difference (Katz's log method), or nil when a group is empty.
    package let relativeDifferenceInterval: RateInterval?
    /// Whether the test group is better, worse, or not distinguishable yet.
    package let verdict: Verdict
    /// Members per group needed to detect the observed difference at α = 0.05 (two-sided) with 80% power, or nil
    /// when a group is empty, the rates are equal, or more than `maxMembersPerGroup` would be needed.
    package let membersPerGroupNeeded: Int?
    /// How many more members the smaller group needs to reach ``membersPerGroupNeeded`` (0 once it has them).
    package let additionalMembersPerGroupNeeded: Int?

    /// Compares two groups' counts. Negative counts count as 0, and successes are capped at the trials.
    /// - Parameters:
    ///   - testSuccesses: Successes in the test group.
    ///   - testTrials: Members of the test group.
    ///   - controlSuccesses: Successes in the control group.
    ///   - controlTrials: Members of the control group.
    package init(testSuccesses: Int, testTrials: Int, controlSuccesses: Int, controlTrials: Int) {
        let testTrials = max(0, testTrials)
        let controlTrials = max(0, controlTrials)
        let testSuccesses = min(max(0, testSuccesses), testTrials)
        let controlSuccesses = min(max(0, controlSuccesses), controlTrials)
        self.testSuccesses = testSuccesses
        self.testTrials = testTrials
        self.controlSuccesses = controlSuccesses
        self.controlTrials = controlTrials
        testRateInterval = RateInterval.wilson(successes: testSuccesses, trials: testTrials)
        controlRateInterval = RateInterval.wilson(successes: controlSuccesses, trials: controlTrials)
        guard testTrials > 0, controlTrials > 0 else {
            relativeDifference = nil
            relativeDifferenceInterval = nil
            verdict = .notDistinguishableYet
            membersPerGroupNeeded = nil
            additionalMembersPerGroupNeeded = nil
            return
        }
        let testRate = Double(testSuccesses) / Double(testTrials)
        let controlRate = Double(controlSuccesses) / Double(controlTrials)
        relativeDifference = controlRate > 0 ? testRate / controlRate - 1 : nil
        let interval = Self.katzInterval(testSuccesses, testTrials, controlSuccesses, controlTrials)
        relativeDifferenceInterval = interval
        verdict =
            interval.lower > 0 ? .better : interval.upper < 0 ? .worse : .notDistinguishableYet
        let needed = Self.membersPerGroup(testRate, controlRate)
        membersPerGroupNeeded = needed
        additionalMembersPerGroupNeeded = needed.map { max(0, $0 - min(testTrials, controlTrials)) }
    }

    /// The relative difference's interval by the log method, with 0.5 added to every cell when one is empty.
    private static func katzInterval(_ x1: Int, _ n1: Int, _ x2: Int, _ n2: Int) -> RateInterval {
        let needsCorrection = x1 == 0 || x2 == 0 || x1 == n1 || x2 == n2
        let correction = needsCorrection ? 0.5 : 0
        let a = Double(x1) + correction
        let m1 = Double(n1) + 2 * correction
        let c = Double(x2) + correction
        let m2 = Double(n2) + 2 * correction
        let logRatio = log((a / m1) / (c / m2))
        let standardError = max(0, 1 / a - 1 / m1 + 1 / c - 1 / m2).squareRoot()
        let margin = RateInterval.z95 * standardError
        return RateInterval(lower: exp(logRatio - margin) - 1, upper: exp(logRatio + margin) - 1)
    }

    /// The two-proportion sample size per group for α = 0.05 two-sided and 80% power, rounded up.
    private static func membersPerGroup(_ p1: Double, _ p2: Double) -> Int? {
        let difference = p1 - p2
        guard difference != 0 else { return nil }
        let mean = (p1 + p2) / 2
        let root =
            RateInterval.z95 * (2 * mean * (1 - mean)).squareRoot()
            + z80 * (p1 * (1 - p1) + p2 * (1 - p2)).squareRoot()
        let members = (root * root / (difference * difference)).rounded(.up)
        guard members.isFinite, members <= Double(maxMembersPerGroup) else { return nil }
        return max(1, Int(members))
    }
}
