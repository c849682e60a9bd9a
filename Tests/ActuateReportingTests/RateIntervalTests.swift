import ActuateReporting
import Testing

@Suite("Rate intervals: Wilson's score interval")
struct RateIntervalTests {
    /// Newcombe, R. G. (1998). Two-sided confidence intervals for the single proportion: comparison of seven
    /// methods. Statistics in Medicine 17, 857–872. Table I, method 3 (score method without continuity
    /// correction): 81/263 → 0.2553–0.3662; 15/148 → 0.0624–0.1605; 0/20 → 0–0.1611; 1/29 → 0.0061–0.1718.
    @Test(
        "matches Newcombe's (1998) worked examples to four decimals",
        arguments: [
            (81, 263, 0.2553, 0.3662),
            (15, 148, 0.0624, 0.1605),
            (0, 20, 0.0, 0.1611),
            (1, 29, 0.0061, 0.1718),
        ]
    )
    func newcombeExamples(successes: Int, trials: Int, lower: Double, upper: Double) throws {
        let interval = try #require(RateInterval.wilson(successes: successes, trials: trials))
        #expect(abs(interval.lower - lower) < 0.00005, "lower \(interval.lower)")
        #expect(abs(interval.upper - upper) < 0.00005, "upper \(interval.upper)")
    }

    @Test("0 of 0 has no interval; 0 of n starts at 0, n of n ends at 1; huge counts stay finite")
    func edgeCases() throws {
        #expect(RateInterval.wilson(successes: 0, trials: 0) == nil)
        #expect(RateInterval.wilson(successes: 5, trials: -3) == nil)
        let none = try #require(RateInterval.wilson(successes: 0, trials: 4))
        #expect(none.lower == 0)
        #expect(none.upper > 0.4 && none.upper < 0.5, "0 of 4 is not an exact 0%: \(none)")
        let all = try #require(RateInterval.wilson(successes: 4, trials: 4))
        #expect(all.upper == 1)
        #expect(all.lower > 0.5 && all.lower < 0.6, "4 of 4 is not an exact 100%: \(all)")
        let huge = try #require(RateInterval.wilson(successes: Int.max / 2, trials: Int.max))
        #expect(huge.lower.isFinite && huge.upper.isFinite)
        #expect(huge.contains(0.5))
        let clamped = try #require(RateInterval.wilson(successes: 10, trials: 5))
        #expect(clamped.upper == 1, "successes above the trials count as the trials")
    }

    @Test("the interval is inside [0, 1] and holds the observed rate, for every count up to 60")
    func holdsTheObservedRate() throws {
        for trials in 1...60 {
            for successes in 0...trials {
                let interval = try #require(RateInterval.wilson(successes: successes, trials: trials))
                let rate = Double(successes) / Double(trials)
                #expect(interval.lower >= 0 && interval.upper <= 1)
                #expect(interval.contains(rate), "\(successes)/\(trials): \(interval)")
            }
        }
    }
}
