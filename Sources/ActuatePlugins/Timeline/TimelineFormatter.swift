import ActuateCore
import Foundation

/// Renders timeline entries as text and JSON, in the words and marks every dump shares (``TimelineOutcome``'s
/// `symbol` and `description`).
enum TimelineFormatter {
    /// One line per action, in the order the actions began, numbered from 1 in that order.
    ///
    /// A request's ``ActionRequest/uniqueID`` is unique, but with the system scheduler the ids come in blocks per
    /// queue, so they do not give the order: the line shows it after the number when the two differ.
    static func text(for entries: [TimelineEntry]) -> String {
        guard !entries.isEmpty else { return "(no actions)\n" }
        // By start (to the microsecond, as the report keeps it), then by id for actions begun in the same one.
        let ordered = entries.sorted { ($0.startDate, $0.requestID) < ($1.startDate, $1.requestID) }
        return ordered.enumerated().map { line(for: $1, number: $0 + 1) }.joined(separator: "\n") + "\n"
    }

    static func line(for entry: TimelineEntry, number: Int) -> String {
        let time = ReportDate.millisecondString(from: entry.startDate)
        let outcome = entry.outcome.map(\.description) ?? "running"
        let marker = entry.outcome?.symbol ?? TimelineOutcome.runningSymbol
        let duration = entry.duration.map { " in " + format(duration: $0) } ?? ""
        let input = entry.inputDescription == "none" ? "" : " (\(entry.inputDescription))"
        let initiator = entry.userInitiated ? "" : " [automatic]"
        let source = entry.source == .application ? "" : " via \(entry.source)"
        let request = entry.requestID == UInt64(number) ? "" : " (request \(entry.requestID))"
        return "\(marker) #\(number)\(request) \(time) [\(entry.sessionName)] \(entry.featureName) › "
            + "\(entry.actionName)\(input)\(source)\(initiator) → \(outcome)\(duration)"
    }

    static func format(duration seconds: TimeInterval) -> String {
        if seconds < 0.001 { return String(format: "%.0f µs", seconds * 1_000_000) }
        if seconds < 1 { return String(format: "%.1f ms", seconds * 1_000) }
        return String(format: "%.2f s", seconds)
    }
}
