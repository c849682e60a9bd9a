import Foundation

/// A 95% confidence interval for a rate, as fractions between 0 and 1 (or, for a relative difference, any real
/// number above −1).
///
/// For a proportion (clicks over impressions, failures over completions, conversions over visitors) the interval is
/// Wilson's score interval (Wilson 1927; method 3 of Newcombe 1998, "Two-sided confidence intervals for the single
/// proportion: comparison of seven methods"). Unlike the textbook p ± 1.96·√(p(1−p)/n) it stays inside [0, 1], is
/// not zero-width at 0 of n or n of n, and keeps close to 95% coverage for small counts:
///
/// For 81 successes in 263 trials it is 0.2553 … 0.3662.
package struct RateInterval: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The lower limit.
    package var lower: Double
    /// The upper limit.
    package var upper: Double

    /// Creates an interval.
    /// - Parameters:
    ///   - lower: The lower limit.
    ///   - upper: The upper limit.
    init(lower: Double, upper: Double) {
        self.lower = lower
        self.upper = upper
    }

    /// The two-sided 95% normal quantile, z₀.₉₇₅.
    package static let z95 = 1.959_963_984_540_054

    /// Wilson's 95% score interval for `successes` of `trials`.
    ///
    /// With p = successes / trials, n = trials and z = 1.96: centre (p + z²/2n) / (1 + z²/n), half-width
    /// z·√(p(1−p)/n + z²/4n²) / (1 + z²/n).
    /// - Parameters:
    ///   - successes: The successes; clamped to `0...trials`.
    ///   - trials: The trials.
    /// - Returns: The interval, or nil when there are no trials.
    package static func wilson(successes: Int, trials: Int) -> RateInterval? {
        guard trials > 0 else { return nil }
        let n = Double(trials)
        let p = Double(min(max(successes, 0), trials)) / n
        let z2 = z95 * z95
        let denominator = 1 + z2 / n
        let centre = (p + z2 / (2 * n)) / denominator
        let halfWidth = z95 * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / denominator
        // At 0 of n and n of n one limit is exactly the observed rate; rounding must not move it past it.
        return RateInterval(lower: max(0, min(p, centre - halfWidth)), upper: min(1, max(p, centre + halfWidth)))
    }

    /// Whether the interval holds `value`, limits included.
    /// - Parameter value: The value.
    /// - Returns: True when `lower <= value <= upper`.
    package func contains(_ value: Double) -> Bool {
        lower <= value && value <= upper
    }

    /// For example `25.5%–36.6%`.
    package var description: String {
        String(format: "%.1f%%–%.1f%%", lower * 100, upper * 100)
    }
}
