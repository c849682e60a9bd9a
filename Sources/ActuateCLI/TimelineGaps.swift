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
    static let maximumRounds = 2

    /// Every stretch of at least one nanosecond between actions when none runs, in time order.
    let idle: [Interval]
    /// The idle stretches drawn as breaks, in time order.
    let collapsed: [Interval]
    /// The whole axis, from 0 to the span, in time order and without holes.
    let segments: [Segment]
    /// The width of the whole axis in display units.
    let displaySpan: Double
    /// The shortest stretch of the drawn axis that holds two thirds of the intervals (``busyShare``) and every
    /// interval that must be seen (the failed actions), from the first start to the last end: what a "busy" zoom
    /// shows.
    let busiest: Interval

    /// The share of the intervals the busiest stretch holds.
    static let busyShare = 2.0 / 3.0

    /// Finds the gaps between the layout's placements; the busiest stretch holds every failed action.
    init(layout: TimelineLayout) {
        self.init(
            intervals: layout.placements.map { Interval(start: $0.start, end: $0.end) },
            span: layout.span,
            mustSee: layout.placements.filter { $0.entry.status == .failure }.map {
                Interval(start: $0.start, end: $0.end)
            }
        )
    }

    /// Finds the gaps between `intervals`, which lie in `0...span`; the busiest stretch also holds `mustSee`.
    init(intervals: [Interval], span: Int64, mustSee: [Interval] = []) {
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
                        start: position,
                        end: gap.start,
                        displayStart: display,
                        displayEnd: display + length,
                        isBreak: false
                    )
                )
                display += length
            }
            segments.append(
                Segment(
                    start: gap.start,
                    end: gap.end,
                    displayStart: display,
                    displayEnd: display + breakLength,
                    isBreak: true
                )
            )
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
        busiest = Self.busiestStretch(of: intervals, mustSee: mustSee, span: span) {
            Self.displayPosition(of: $0, in: segments)
        }
    }

    /// Where time `nanoseconds` (relative to the origin) falls on the axis, in display units.
    func displayPosition(of nanoseconds: Int64) -> Double {
        Self.displayPosition(of: nanoseconds, in: segments)
    }

    private static func displayPosition(of nanoseconds: Int64, in segments: [Segment]) -> Double {
        guard let segment = segments.first(where: { nanoseconds <= $0.end }) else {
            return segments.last?.displayEnd ?? 0
        }
        guard nanoseconds > segment.start, segment.end > segment.start else { return segment.displayStart }
        let fraction = Double(nanoseconds - segment.start) / Double(segment.end - segment.start)
        return segment.displayStart + fraction * (segment.displayEnd - segment.displayStart)
    }

    /// The stretches between intervals that no interval covers (none before the first or after the last).
    private static func idleStretches(between intervals: [Interval], span: Int64) -> [Interval] {
        var idle: [Interval] = []
        var covered: Int64?
        for interval in intervals.sorted(by: { ($0.start, $0.end) < ($1.start, $1.end) }) {
            let start = min(max(interval.start, 0), span)
            let end = min(max(interval.end, start), span)
            if let covered, start > covered { idle.append(Interval(start: covered, end: start)) }
            covered = max(covered ?? end, end)
        }
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

    /// The shortest stretch, on the drawn axis, from one interval's start to the end of the last of the next
    /// ``busyShare`` of them, widened to hold `mustSee`; the earliest of equals.
    private static func busiestStretch(
        of intervals: [Interval],
        mustSee: [Interval],
        span: Int64,
        scale: (Int64) -> Double
    ) -> Interval {
        let sorted = intervals.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
        guard !sorted.isEmpty else { return Interval(start: 0, end: span) }
        let count = max(1, Int((Double(sorted.count) * busyShare).rounded(.up)))
        var best = Interval(start: 0, end: span)
        var bestWidth = Double.infinity
        for first in 0...(sorted.count - count) {
            let group = sorted[first..<(first + count)] + mustSee
            let start = min(max(group.map(\.start).min() ?? 0, 0), span)
            let stretch = Interval(start: start, end: min(max(group.map(\.end).max() ?? 0, start), span))
            let width = scale(stretch.end) - scale(stretch.start)
            if width < bestWidth {
                best = stretch
                bestWidth = width
            }
        }
        return best
    }
}
