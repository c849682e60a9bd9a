import Foundation

/// Durations summarised in logarithmic buckets, so that quantiles come out within 1% of the exact value
/// whatever the number of durations, in memory that grows with their range, not their count.
///
/// Bucket `i` holds durations in (γ^(i-1), γ^i] with γ = 1.01 / 0.99, and answers with the value whose relative
/// error to both ends is at most 1%. Durations under a nanosecond count as zero. From 1 µs to 1 hour this is at
/// most about 1,100 buckets.
struct DurationSketch: Sendable, Hashable {
    /// The largest relative error of a quantile.
    static let relativeAccuracy = 0.01
    private static let gamma = (1 + relativeAccuracy) / (1 - relativeAccuracy)
    private static let logGamma = log(gamma)
    private static let zeroThreshold = 1e-9

    private var buckets: [Int: Int] = [:]
    private var zeroCount = 0
    /// The number of durations added.
    private(set) var count = 0

    /// Adds a duration in seconds; negative and non-finite values are ignored.
    mutating func add(_ seconds: Double) {
        guard seconds.isFinite, seconds >= 0 else { return }
        count += 1
        if seconds < Self.zeroThreshold {
            zeroCount += 1
        } else {
            buckets[Int((log(seconds) / Self.logGamma).rounded(.up)), default: 0] += 1
        }
    }

    /// The nearest-rank quantile: the smallest duration with at least `fraction` of all durations at or below it,
    /// within 1%.
    ///
    /// - Parameter fraction: The quantile, from 0 to 1, such as 0.95.
    /// - Returns: The duration in seconds, or nil when nothing was added.
    func quantile(_ fraction: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = min(count, max(1, Int((fraction * Double(count)).rounded(.up))))
        var seen = zeroCount
        if rank <= seen { return 0 }
        for key in buckets.keys.sorted() {
            seen += buckets[key] ?? 0
            if seen >= rank { return 2 * pow(Self.gamma, Double(key)) / (Self.gamma + 1) }
        }
        return nil
    }
}
