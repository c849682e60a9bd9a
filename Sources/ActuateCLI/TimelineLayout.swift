/// Lays a timeline out for charts: entries sorted by their monotonic start, one lane per session and queue,
/// and rows inside a lane so that bars never collide.
struct TimelineLayout {
    /// One session and queue.
    struct Lane: Equatable {
        var session: String
        var queue: String
        /// How many rows the lane needs.
        var rowCount: Int
    }

    /// Where one entry goes.
    struct Placement {
        var entry: ReportTimelineEntry
        var lane: Int
        var row: Int
        /// Start, relative to the earliest start in the timeline.
        var start: Int64
        /// End, relative to the same origin: the timeline's end for actions still running.
        var end: Int64
    }

    /// How bars may share a row.
    enum Packing {
        /// Never overlap: a bar starts after the previous one in its row ends (for drawn bars).
        case disjoint
        /// Overlap only by nesting: a bar that lies wholly inside another may share its row (for trace
        /// viewers, which draw nested slices as a stack).
        case nested
    }

    var lanes: [Lane] = []
    var placements: [Placement] = []
    /// The earliest start, in the report's monotonic nanoseconds.
    var origin: Int64 = 0
    /// The latest end or start, relative to ``origin``; at least 1.
    var span: Int64 = 1

    init(entries: [ReportTimelineEntry], packing: Packing) {
        let sorted = entries.sorted {
            ($0.startOffsetNanoseconds, $0.requestID) < ($1.startOffsetNanoseconds, $1.requestID)
        }
        guard let first = sorted.first else { return }
        origin = first.startOffsetNanoseconds
        let latest = sorted.map { $0.endOffsetNanoseconds ?? $0.startOffsetNanoseconds }.max() ?? origin
        span = max(1, Nanoseconds.between(origin, latest))
        var laneIndex: [String: [String: Int]] = [:]
        var rowsByLane: [[[Int64]]] = []
        for entry in sorted {
            let lane: Int
            if let existing = laneIndex[entry.sessionName]?[entry.queueLabel] {
                lane = existing
            } else {
                lane = lanes.count
                laneIndex[entry.sessionName, default: [:]][entry.queueLabel] = lane
                lanes.append(Lane(session: entry.sessionName, queue: entry.queueLabel, rowCount: 0))
                rowsByLane.append([])
            }
            let start = Nanoseconds.between(origin, entry.startOffsetNanoseconds)
            let end = max(start, entry.endOffsetNanoseconds.map { Nanoseconds.between(origin, $0) } ?? span)
            let row = Self.place(start: start, end: end, in: &rowsByLane[lane], packing: packing)
            lanes[lane].rowCount = rowsByLane[lane].count
            placements.append(Placement(entry: entry, lane: lane, row: row, start: start, end: end))
        }
        lanes = Self.groupedBySession(lanes, placements: &placements)
    }

    /// Puts an interval in the first row that can take it; each row is a stack of the ends of the intervals
    /// still open at `start`.
    private static func place(start: Int64, end: Int64, in rows: inout [[Int64]], packing: Packing) -> Int {
        for index in rows.indices {
            rows[index].removeAll { $0 <= start }
            let fits =
                switch packing {
                case .disjoint: rows[index].isEmpty
                case .nested: rows[index].last.map { $0 >= end } ?? true
                }
            if fits {
                rows[index].append(end)
                return index
            }
        }
        rows.append([end])
        return rows.count - 1
    }

    /// Orders lanes by session, in the order sessions first appear, keeping each session's queues in order.
    private static func groupedBySession(_ lanes: [Lane], placements: inout [Placement]) -> [Lane] {
        var sessionOrder: [String] = []
        for lane in lanes where !sessionOrder.contains(lane.session) { sessionOrder.append(lane.session) }
        let order = lanes.indices.sorted {
            let left = sessionOrder.firstIndex(of: lanes[$0].session) ?? 0
            let right = sessionOrder.firstIndex(of: lanes[$1].session) ?? 0
            return (left, $0) < (right, $1)
        }
        var newIndex = Array(repeating: 0, count: lanes.count)
        for (position, old) in order.enumerated() { newIndex[old] = position }
        for index in placements.indices { placements[index].lane = newIndex[placements[index].lane] }
        return order.map { lanes[$0] }
    }
}
