import Foundation

/// Formats nanosecond counts for people.
enum DurationText {
    /// A duration such as `250 µs`, `1.5 ms` or `2.31 s`.
    static func format(nanoseconds: Int64) -> String {
        let value = Double(nanoseconds)
        if value < 1_000 { return "\(nanoseconds) ns" }
        if value < 1_000_000 { return String(format: "%.0f µs", value / 1_000) }
        if value < 1_000_000_000 { return String(format: "%.1f ms", value / 1_000_000) }
        return String(format: "%.2f s", value / 1_000_000_000)
    }

    /// An offset from the start of the timeline, such as `+12.345 ms`.
    static func offset(nanoseconds: Int64) -> String {
        String(format: "+%.3f ms", Double(nanoseconds) / 1_000_000)
    }
}
