/// The long idle stretches of a laid-out timeline, when no action runs, and the scale that draws each of them as a
/// short marked break, so that bursts of actions far apart in time each get room on the axis.
///
/// An idle stretch is collapsed when it is longer than ``collapseFraction`` of the time still drawn to scale. That
/// is decided again after each round of collapsing (at most ``maximumRounds``), so a burst that was a sliver of a
/// long axis gets the same treatment once the long gaps around it are gone. Each break is drawn
/// ``breakFraction`` of the time drawn to scale wide.
struct TimelineGaps {
    /// A stretch of the timeline, in nanoseconds relative to the layout's origin.
    struct Interval: Equatable {
        var start: Int64
        var end: Int64

        /// `end - start`; never negative, since both lie inside the layout's span.
        var duration: Int64 { end - start }
    }

    /// A piece of the axis: the time `start...end` drawn from `displayStart` to `displayEnd`, in display units.
    ///
    /// Display units are nanoseconds wherever time is drawn to scale; a break squeezes its gap into a fixed
    /// width.
    struct Segment: Equatable, Encodable {
        var start: Int64
        var end: Int64
        var displayStart: Double
        var displayEnd: Double
        /// Whether this piece is a collapsed idle gap.
        var isBreak: Bool
    }

    /// How long a gap must be to be collapsed, as a share of the time drawn to scale.
    static let collapseFraction = 0.05
    /// How wide a break is drawn, as a share of the time drawn to scale.
    static let breakFraction = 0.02
    /// The most rounds of collapsing.
    static let maximumRounds = 4

    /// Every stretch of at least one nanosecond when no action runs, in time order.
    let idle: [Interval]
    /// The idle stretches drawn as breaks, in time order.
    let collapsed: [Interval]
    /// The whole axis, from 0 to the span, in time order and without holes.
    let segments: [Segment]
    /// The width of the whole axis in display units.
    let displaySpan: Double
    /// The stretch between two breaks (or an end of the axis) where the most actions start: what a "busy" zoom
    /// shows.
    let busiest: Interval

    /// Finds the gaps between the layout's placements.
    init(layout: TimelineLayout) {
        self.init(intervals: layout.placements.map { Interval(start: $0.start, end: $0.end) }, span: layout.span)
    }

    /// Finds the gaps between `intervals`, which lie in `0...span`.
    init(intervals: [Interval], span: Int64) {
        let span = max(1, span)
        idle = Self.idleStretches(between: intervals, span: span)
        collapsed = Self.longGaps(in: idle, span: span)
        let breakLength = Self.breakLength(span: span, collapsed: collapsed)
        var segments: [Segment] = []
        var position: Int64 = 0
        var display = 0.0
        for gap in collapsed {
            if gap.start > position {
                let length = Double(gap.start - position)
                segments.append(
                    Segment(
                        start: position, end: gap.start, displayStart: display, displayEnd: display + length,
                        isBreak: false))
                display += length
            }
            segments.append(
                Segment(
                    start: gap.start, end: gap.end, displayStart: display, displayEnd: display + breakLength,
                    isBreak: true))
            display += breakLength
            position = gap.end
        }
        if position < span || segments.isEmpty {
            let length = Double(span - position)
            segments.append(
                Segment(start: position, end: span, displayStart: display, displayEnd: display + length, isBreak: false)
            )
            display += length
        }
        self.segments = segments
        displaySpan = display
        busiest = Self.busiestStretch(starts: intervals.map(\.start), between: collapsed, span: span)
    }

    /// Where time `nanoseconds` (relative to the origin) falls on the axis, in display units.
    func displayPosition(of nanoseconds: Int64) -> Double {
        guard let segment = segments.first(where: { nanoseconds <= $0.end }) else { return displaySpan }
        guard nanoseconds > segment.start, segment.end > segment.start else { return segment.displayStart }
        let fraction = Double(nanoseconds - segment.start) / Double(segment.end - segment.start)
        return segment.displayStart + fraction * (segment.displayEnd - segment.displayStart)
    }

    /// The stretches of `0...span` that no interval covers.
    private static func idleStretches(between intervals: [Interval], span: Int64) -> [Interval] {
        var idle: [Interval] = []
        var covered: Int64 = 0
        for interval in intervals.sorted(by: { ($0.start, $0.end) < ($1.start, $1.end) }) {
            let start = min(max(interval.start, 0), span)
            let end = min(max(interval.end, start), span)
            if start > covered { idle.append(Interval(start: covered, end: start)) }
            covered = max(covered, end)
        }
        if covered < span { idle.append(Interval(start: covered, end: span)) }
        return idle
    }

    /// The idle stretches longer than ``collapseFraction`` of the time left to scale, round after round.
    private static func longGaps(in idle: [Interval], span: Int64) -> [Interval] {
        var collapsed: [Interval] = []
        for _ in 0..<maximumRounds {
            let scaled = Double(span) - collapsed.reduce(0.0) { $0 + Double($1.duration) }
            let threshold = scaled * collapseFraction
            let longer = idle.filter { Double($0.duration) > threshold }
            if longer.count == collapsed.count { break }
            collapsed = longer
        }
        return collapsed
    }

    /// ``breakFraction`` of the time drawn to scale once `collapsed` is gone.
    private static func breakLength(span: Int64, collapsed: [Interval]) -> Double {
        let scaled = Double(span) - collapsed.reduce(0.0) { $0 + Double($1.duration) }
        return max(scaled, 1) * breakFraction
    }

    /// The stretch between breaks with the most starts; the earliest of equals.
    private static func busiestStretch(starts: [Int64], between collapsed: [Interval], span: Int64) -> Interval {
        var stretches: [Interval] = []
        var position: Int64 = 0
        for gap in collapsed {
            stretches.append(Interval(start: position, end: gap.start))
            position = gap.end
        }
        stretches.append(Interval(start: position, end: span))
        var best = stretches[0]
        var bestCount = -1
        for stretch in stretches {
            let count = starts.filter { $0 >= stretch.start && $0 <= stretch.end }.count
            if count > bestCount {
                best = stretch
                bestCount = count
            }
        }
        return best
    }
}
