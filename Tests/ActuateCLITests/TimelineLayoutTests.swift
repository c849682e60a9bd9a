import Foundation
import Testing

@testable import ActuateCLI

@Suite("Timeline layout")
struct TimelineLayoutTests {
    private func entry(
        _ id: UInt64,
        session: String = "main",
        queue: String = "q",
        start: Int64,
        duration: Int64?
    )
        -> ReportTimelineEntry
    {
        ReportTimelineEntry(
            requestID: id,
            sessionName: session,
            featureName: "F",
            featurePath: "App/F",
            actionName: "A\(id)",
            queueLabel: queue,
            inputDescription: "none",
            userInitiated: true,
            source: ReportSource(kind: "application"),
            startDate: "2026-11-23T10:15:01.000000Z",
            startOffsetNanoseconds: start,
            durationNanoseconds: duration,
            outcome: duration == nil ? nil : ReportOutcome(kind: "success")
        )
    }

    @Test("one lane per session and queue, sessions kept together in the order they first appear")
    func lanes() {
        let layout = TimelineLayout(
            entries: [
                entry(1, session: "main", queue: "a", start: 100, duration: 10),
                entry(2, session: "other", queue: "a", start: 105, duration: 10),
                entry(3, session: "main", queue: "b", start: 110, duration: 10),
            ],
            packing: .disjoint
        )
        #expect(layout.lanes.map { "\($0.session)/\($0.queue)" } == ["main/a", "main/b", "other/a"])
        #expect(layout.placements.map(\.entry.requestID) == [1, 2, 3])
        #expect(layout.placements.map(\.lane) == [0, 2, 1])
        #expect(layout.origin == 100)
        #expect(layout.span == 20)
    }

    @Test("overlapping bars get their own rows; nested ones may share a row only when packing allows nesting")
    func rows() {
        let entries = [
            entry(1, start: 0, duration: 100),
            entry(2, start: 10, duration: 20),  // nested in 1
            entry(3, start: 50, duration: 80),  // overlaps 1 without nesting
            entry(4, start: 140, duration: 5),  // after everything
        ]
        let disjoint = TimelineLayout(entries: entries, packing: .disjoint)
        #expect(disjoint.placements.map(\.row) == [0, 1, 1, 0])
        #expect(disjoint.lanes[0].rowCount == 2)
        let nested = TimelineLayout(entries: entries, packing: .nested)
        #expect(nested.placements.map(\.row) == [0, 0, 1, 0])
    }

    @Test("an action still running reaches the end of the timeline")
    func running() {
        let layout = TimelineLayout(
            entries: [entry(1, start: 0, duration: 50), entry(2, start: 20, duration: nil)],
            packing: .disjoint
        )
        #expect(layout.span == 50)
        #expect(layout.placements[1].end == 50)
        #expect(layout.placements[1].row == 1)
    }

    @Test("an empty timeline has no lanes and a span of 1")
    func empty() {
        let layout = TimelineLayout(entries: [], packing: .nested)
        #expect(layout.lanes.isEmpty)
        #expect(layout.span == 1)
    }
}
