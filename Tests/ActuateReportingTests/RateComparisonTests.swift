import ActuateReporting
import ActuateTestSupport
import Foundation
import Testing

@Suite("Rate comparisons: lift interval, verdict, members needed")
struct RateComparisonTests {
    @Test("30 of 100 against 20 of 100 is +50% but not distinguishable yet (the issue's example)")
    func issueExample() throws {
        let comparison = RateComparison(testSuccesses: 30, testTrials: 100, controlSuccesses: 20, controlTrials: 100)
        #expect(abs((comparison.relativeDifference ?? 0) - 0.5) < 1e-12)
        let interval = try #require(comparison.relativeDifferenceInterval)
        // Katz's log method by hand: log 1.5 ± 1.96·√(1/30 − 1/100 + 1/20 − 1/100) = 0.4055 ± 0.4933, so the
        // ratio is 0.9160 … 2.4564 and the relative difference −8.40% … +145.64%.
        #expect(abs(interval.lower - -0.0840) < 0.0001, "\(interval)")
        #expect(abs(interval.upper - 1.4564) < 0.0001, "\(interval)")
        #expect(comparison.verdict == .notDistinguishableYet)
        #expect(comparison.verdict.description == "not distinguishable yet")
        // (1.96·√(2·0.25·0.75) + 0.8416·√(0.3·0.7 + 0.2·0.8))² / 0.1² = 293.15, rounded up.
        #expect(comparison.membersPerGroupNeeded == 294)
        #expect(comparison.additionalMembersPerGroupNeeded == 194)
    }

    @Test("the same rates on 10 times the visitors are better, and the reverse is worse")
    func verdicts() {
        let larger = RateComparison(testSuccesses: 300, testTrials: 1_000, controlSuccesses: 200, controlTrials: 1_000)
        #expect(larger.verdict == .better)
        #expect(larger.additionalMembersPerGroupNeeded == 0)
        let reverse = RateComparison(testSuccesses: 200, testTrials: 1_000, controlSuccesses: 300, controlTrials: 1_000)
        #expect(reverse.verdict == .worse)
        #expect((reverse.relativeDifferenceInterval?.upper ?? 0) < 0)
    }

    /// Fleiss, Levin and Paik, "Statistical Methods for Rates and Proportions" (3rd ed., 2003), §4.2, and the
    /// same formula in every two-proportion calculator without continuity correction: 0.05 against 0.10 at
    /// α = 0.05 two-sided and 80% power needs 434.4, so 435 per group; 0.5 against 0.6 needs 387.3, so 388.
    @Test("members needed match the two-proportion formula's textbook values")
    func membersNeeded() {
        let small = RateComparison(testSuccesses: 10, testTrials: 100, controlSuccesses: 5, controlTrials: 100)
        #expect(small.membersPerGroupNeeded == 435)
        let even = RateComparison(testSuccesses: 60, testTrials: 100, controlSuccesses: 50, controlTrials: 100)
        #expect(even.membersPerGroupNeeded == 388)
        let equal = RateComparison(testSuccesses: 5, testTrials: 10, controlSuccesses: 50, controlTrials: 100)
        #expect(equal.membersPerGroupNeeded == nil, "equal rates: no sample detects a difference of zero")
    }

    @Test(
        "empty groups, zero conversions, all conversions and huge counts give no NaN and no crash",
        arguments: [
            (0, 0, 0, 0), (0, 10, 0, 10), (10, 10, 10, 10), (0, 10, 10, 10), (10, 10, 0, 10), (3, 10, 0, 0),
            (0, 0, 3, 10), (Int.max / 3, Int.max / 2, Int.max / 4, Int.max / 2), (1, Int.max, 0, Int.max),
            (-5, -1, 7, 3),
        ]
    )
    func edgeCases(testSuccesses: Int, testTrials: Int, controlSuccesses: Int, controlTrials: Int) throws {
        let comparison = RateComparison(
            testSuccesses: testSuccesses,
            testTrials: testTrials,
            controlSuccesses: controlSuccesses,
            controlTrials: controlTrials
        )
        for value in [
            comparison.relativeDifference, comparison.relativeDifferenceInterval?.lower,
            comparison.relativeDifferenceInterval?.upper, comparison.testRateInterval?.lower,
            comparison.controlRateInterval?.upper,
        ] {
            if let value { #expect(!value.isNaN && value.isFinite, "\(comparison)") }
        }
        if let interval = comparison.relativeDifferenceInterval {
            #expect(interval.lower >= -1 && interval.lower <= interval.upper)
        }
        if comparison.testTrials == 0 || comparison.controlTrials == 0 {
            #expect(comparison.verdict == .notDistinguishableYet)
            #expect(comparison.relativeDifferenceInterval == nil)
        }
        _ = try JSONEncoder().encode(comparison)
    }

    @Test("2,000 seeded A/A experiments (20% on both sides, 500 per group) call a difference at most 7% of the time")
    func aaSimulation() {
        var generator = SplitMix64(seed: 0xA1A1_2026)
        var calls = 0
        let experiments = 2_000
        for _ in 0..<experiments {
            let test = Self.conversions(of: 500, rate: 0.2, using: &generator)
            let control = Self.conversions(of: 500, rate: 0.2, using: &generator)
            let comparison = RateComparison(
                testSuccesses: test,
                testTrials: 500,
                controlSuccesses: control,
                controlTrials: 500
            )
            if comparison.verdict != .notDistinguishableYet { calls += 1 }
        }
        let fraction = Double(calls) / Double(experiments)
        #expect(fraction <= 0.07, "\(calls) of \(experiments) A/A experiments called a difference")
        #expect(fraction >= 0.03, "\(calls) of \(experiments): the interval is far too wide to be a 95% interval")
    }

    @Test("at the members needed for 30% against 20%, 2,000 seeded experiments call 'better' about 80% of the time")
    func powerSimulation() throws {
        let planned = RateComparison(testSuccesses: 30, testTrials: 100, controlSuccesses: 20, controlTrials: 100)
        let members = try #require(planned.membersPerGroupNeeded)
        var generator = SplitMix64(seed: 0xB0B0_2026)
        var better = 0
        for _ in 0..<2_000 {
            let comparison = RateComparison(
                testSuccesses: Self.conversions(of: members, rate: 0.3, using: &generator),
                testTrials: members,
                controlSuccesses: Self.conversions(of: members, rate: 0.2, using: &generator),
                controlTrials: members
            )
            if comparison.verdict == .better { better += 1 }
        }
        let power = Double(better) / 2_000
        #expect(power > 0.74 && power < 0.86, "power \(power) at \(members) per group")
    }

    /// How many of `count` visitors convert at `rate`.
    private static func conversions(of count: Int, rate: Double, using generator: inout SplitMix64) -> Int {
        (0..<count).reduce(0) { total, _ in total + (Double.random(in: 0..<1, using: &generator) < rate ? 1 : 0) }
    }
}
