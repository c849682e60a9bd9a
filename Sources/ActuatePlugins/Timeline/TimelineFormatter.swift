import ActuateCore
import Foundation

/// Renders timeline entries as text and JSON.
enum TimelineFormatter {
    static func text(for entries: [TimelineEntry]) -> String {
        guard !entries.isEmpty else { return "(no actions)\n" }
        return entries.map(line).joined(separator: "\n") + "\n"
    }

    static func line(for entry: TimelineEntry) -> String {
        let time = entry.startDate.formatted(.iso8601)
        let outcome = entry.outcome.map(\.description) ?? "in progress"
        let marker = entry.outcome?.isFailure == true ? "✗" : (entry.outcome == nil ? "…" : "✓")
        let duration = entry.duration.map { " in " + format(duration: $0) } ?? ""
        let input = entry.inputDescription == "none" ? "" : " (\(entry.inputDescription))"
        let initiator = entry.userInitiated ? "" : " [automatic]"
        let source = entry.source == .application ? "" : " via \(entry.source)"
        return "\(marker) #\(entry.requestID) \(time) [\(entry.sessionName)] \(entry.featureName) › "
            + "\(entry.actionName)\(input)\(source)\(initiator) → \(outcome)\(duration)"
    }

    static func format(duration seconds: TimeInterval) -> String {
        if seconds < 0.001 { return String(format: "%.0f µs", seconds * 1_000_000) }
        if seconds < 1 { return String(format: "%.1f ms", seconds * 1_000) }
        return String(format: "%.2f s", seconds)
    }
}
