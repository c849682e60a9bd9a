import Foundation

/// The data the timeline page's script draws: lanes, and each bar with its position and details.
struct TimelinePageData: Encodable {
    struct Lane: Encodable {
        var session: String
        var queue: String
        var rows: Int
        var firstOfSession: Bool
    }

    struct Bar: Encodable {
        var request: UInt64
        var lane: Int
        var row: Int
        var start: Int64
        var end: Int64
        var status: String
        var label: String
        var feature: String
        var action: String
        /// Nanoseconds, or nil while the action runs.
        var duration: Int64?
        var outcome: String
        var summary: String
        var details: [[String]]
    }

    var span: Int64
    var lanes: [Lane]
    var bars: [Bar]
    /// The axis with long idle gaps collapsed into breaks.
    var segments: [TimelineGaps.Segment]
    /// The stretch `[start, end]` that `?zoom=busy` shows.
    var busiest: [Int64]

    init(report: ReportDocument, layout: TimelineLayout, gaps: TimelineGaps) {
        span = layout.span
        segments = gaps.segments
        busiest = [gaps.busiest.start, gaps.busiest.end]
        lanes = layout.lanes.enumerated().map { index, lane in
            Lane(
                session: lane.session,
                queue: lane.queue,
                rows: lane.rowCount,
                firstOfSession: index == 0 || layout.lanes[index - 1].session != lane.session
            )
        }
        bars = layout.placements.map { placement in
            let entry = placement.entry
            let duration = entry.durationNanoseconds.map { DurationText.format(nanoseconds: $0) } ?? "still running"
            let outcome = entry.outcome?.description ?? "still running"
            var details = [
                ["Action", entry.actionName],
                ["Feature", "\(entry.featureName) (\(entry.featurePath))"],
                ["Request", "#\(entry.requestID)"],
                ["Session", entry.sessionName],
                ["Queue", entry.queueLabel],
                ["Input", entry.inputDescription],
                ["Source", entry.source.description],
                ["User initiated", entry.userInitiated ? "yes" : "no"],
                ["Started", entry.startDate],
                ["Start offset", DurationText.offset(nanoseconds: placement.start)],
                ["Duration", duration],
                ["Outcome", entry.outcome?.kind ?? "still running"],
            ]
            if let message = entry.outcome?.message { details.append(["Message", message]) }
            return Bar(
                request: entry.requestID,
                lane: placement.lane,
                row: placement.row,
                start: placement.start,
                end: placement.end,
                status: entry.status.rawValue,
                label: entry.title,
                feature: entry.featureName,
                action: entry.actionName,
                duration: entry.durationNanoseconds,
                outcome: outcome,
                summary: "\(entry.title) · \(duration) · \(outcome)",
                details: details
            )
        }
    }

    /// The data as JSON that is safe inside a `<script>` element: `<`, `>` and `&` are written as escapes.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(self), as: UTF8.self)
        return text.replacingOccurrences(of: "<", with: "\\u003c")
            .replacingOccurrences(of: ">", with: "\\u003e")
            .replacingOccurrences(of: "&", with: "\\u0026")
    }
}
