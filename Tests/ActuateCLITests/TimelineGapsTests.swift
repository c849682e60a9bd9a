import Foundation
import Testing

@testable import ActuateCLI

@Suite("Timeline gaps")
struct TimelineGapsTests {
    private typealias Interval = TimelineGaps.Interval
    private typealias Segment = TimelineGaps.Segment

    private func intervals(_ pairs: [(Int64, Int64)]) -> [Interval] {
        pairs.map { Interval(start: $0.0, end: $0.1) }
    }

    @Test("a gap longer than 5% of the time drawn to scale becomes a break 2% of it wide; short gaps stay to scale")
    func longGapBecomesBreak() {
        let gaps = TimelineGaps(intervals: intervals([(0, 100), (101, 200), (10_000, 10_100)]), span: 10_100)
        #expect(gaps.idle == intervals([(100, 101), (200, 10_000)]))
        #expect(gaps.collapsed == intervals([(200, 10_000)]))
        // 300 ns stay to scale, so the break is 6 display units wide.
        #expect(
            gaps.segments == [
                Segment(start: 0, end: 200, displayStart: 0, displayEnd: 200, isBreak: false),
                Segment(start: 200, end: 10_000, displayStart: 200, displayEnd: 206, isBreak: true),
                Segment(start: 10_000, end: 10_100, displayStart: 206, displayEnd: 306, isBreak: false),
            ]
        )
        #expect(gaps.displaySpan == 306)
    }

    @Test("the threshold is decided again once long gaps are gone, so a burst on a long axis gets room too")
    func rounds() {
        // Round 1 (threshold 5,000.5 ns) collapses the long gap; 50 ns are left to scale, so round 2 (2.5 ns)
        // collapses the 20 ns gap between the first two actions as well.
        let gaps = TimelineGaps(intervals: intervals([(0, 10), (30, 40), (100_000, 100_010)]), span: 100_010)
        #expect(gaps.collapsed == intervals([(10, 30), (40, 100_000)]))
        #expect(gaps.segments.map(\.isBreak) == [false, true, false, true, false])
        #expect(abs(gaps.displaySpan - 31.2) < 1e-9)
    }

    @Test("evenly spread actions have no long gap: the axis stays linear")
    func evenlySpread() {
        let pairs = (0..<100).map { (Int64($0) * 10, Int64($0) * 10 + 6) }
        let gaps = TimelineGaps(intervals: intervals(pairs), span: 996)
        #expect(gaps.idle.count == 99)
        #expect(gaps.collapsed.isEmpty)
        #expect(gaps.segments == [Segment(start: 0, end: 996, displayStart: 0, displayEnd: 996, isBreak: false)])
        #expect(gaps.busiest == Interval(start: 0, end: 666))
    }

    @Test("time covered by any action, nested, overlapping or still running, is never idle")
    func coveredTimeIsNotIdle() {
        let gaps = TimelineGaps(
            intervals: intervals([(0, 50), (10, 20), (40, 300), (500, 510), (505, 1_000)]),
            span: 1_000
        )
        #expect(gaps.idle == intervals([(300, 500)]))
        let running = TimelineGaps(intervals: intervals([(0, 10), (5, 1_000), (900, 910)]), span: 1_000)
        #expect(running.idle.isEmpty)
        #expect(running.collapsed.isEmpty)
    }

    @Test("positions map monotonically onto the axis, and a break squeezes its whole gap")
    func displayPositions() {
        let gaps = TimelineGaps(intervals: intervals([(0, 100), (101, 200), (10_000, 10_100)]), span: 10_100)
        #expect(gaps.displayPosition(of: 0) == 0)
        #expect(gaps.displayPosition(of: 150) == 150)
        #expect(gaps.displayPosition(of: 200) == 200)
        #expect(gaps.displayPosition(of: 5_100) == 203)
        #expect(gaps.displayPosition(of: 10_000) == 206)
        #expect(gaps.displayPosition(of: 10_050) == 256)
        #expect(gaps.displayPosition(of: 10_100) == 306)
        let samples = stride(from: Int64(0), through: 10_100, by: 37).map(gaps.displayPosition(of:))
        #expect(samples == samples.sorted())
    }

    @Test(
        "the busiest stretch is the narrowest on the drawn axis that holds two thirds of the actions and the failed ones"
    )
    func busiest() {
        // Six actions: two far apart, then four packed close together, which make two thirds.
        let pairs: [(Int64, Int64)] = [
            (0, 10), (50_000, 50_010), (100_000, 100_010), (100_011, 100_021), (100_022, 100_032), (100_033, 100_040),
        ]
        let gaps = TimelineGaps(intervals: intervals(pairs), span: 100_040)
        #expect(gaps.busiest == Interval(start: 100_000, end: 100_040))
        // Without breaks between them, the stretch is measured in plain time all the same.
        let even = TimelineGaps(intervals: intervals([(0, 10), (11, 20), (21, 25), (26, 40)]), span: 40)
        #expect(even.collapsed.isEmpty)
        #expect(even.busiest == Interval(start: 0, end: 25))
        // A failed action that must be seen widens it.
        let failed = TimelineGaps(intervals: intervals(pairs), span: 100_040, mustSee: intervals([(50_000, 50_010)]))
        #expect(failed.busiest == Interval(start: 50_000, end: 100_032))
    }

    @Test("an empty timeline is one linear segment of 1 ns, and the layout's placements are what counts")
    func emptyAndLayout() {
        let empty = TimelineGaps(layout: TimelineLayout(entries: [], packing: .disjoint))
        #expect(empty.segments == [Segment(start: 0, end: 1, displayStart: 0, displayEnd: 1, isBreak: false)])
        #expect(empty.busiest == Interval(start: 0, end: 1))
        let entries = [(1, 5_000, 100), (2, 5_200, 100), (3, 900_000, 50)].map { id, start, duration in
            ReportTimelineEntry(
                requestID: UInt64(id),
                sessionName: "main",
                featureName: "F",
                featurePath: "App/F",
                actionName: "A",
                queueLabel: "q",
                inputDescription: "none",
                userInitiated: true,
                source: ReportSource(kind: "application"),
                startDate: "2026-11-23T10:15:01.000000Z",
                startOffsetNanoseconds: Int64(start),
                durationNanoseconds: Int64(duration),
                outcome: ReportOutcome(kind: "success")
            )
        }
        let gaps = TimelineGaps(layout: TimelineLayout(entries: entries, packing: .disjoint))
        #expect(gaps.idle == intervals([(100, 200), (300, 895_000)]))
        #expect(gaps.collapsed == intervals([(100, 200), (300, 895_000)]))
    }
}
