import Foundation
import Testing

@testable import ActuateReporting

@Suite("Journal state recovery")
struct JournalStateTests {
    func event(_ sequence: UInt64, _ id: UUID, offset: Int, hasKey: Bool = true) -> JournalCheckedSegment.Record {
        JournalCheckedSegment.Record(
            sequence: sequence,
            key: JournalEventKey(id),
            keyHash: JournalIDIndex.hash(JournalEventKey(id)),
            offset: offset,
            payloadLength: 10,
            kind: .event,
            hasKey: hasKey
        )
    }

    @Test("a run longer than a chunk of the index registers every event, and repeats across chunks are ignored")
    func recoverEventsAcrossChunks() {
        var state = JournalState(segmentCapacity: 1 << 20, maxTotalBytes: 1 << 30)
        state.recoverSegment(number: 1, size: 0)
        let count = JournalState.recoveryChunk * 3 + 5
        let ids = (0..<count).map { _ in UUID() }
        var records = ids.enumerated().map { event(UInt64($0.offset + 1), $0.element, offset: $0.offset * 40) }
        // Repeat the first id of the run in the second chunk and the last one's sequence out of order in the third.
        records[JournalState.recoveryChunk + 1] = event(UInt64(JournalState.recoveryChunk + 2), ids[0], offset: 7)
        records[JournalState.recoveryChunk * 2 + 1] = event(1, UUID(), offset: 9)
        let ignored = state.recoverEvents(records[...])
        #expect(ignored == 2)
        #expect(state.liveCount == count - 2)
        #expect(state.entries.count == count - 2)
        let ignoredPositions = [JournalState.recoveryChunk + 1, JournalState.recoveryChunk * 2 + 1]
        let kept = records.indices.filter { !ignoredPositions.contains($0) }.map { records[$0].sequence }
        #expect(state.entries.map(\.sequence) == kept)
        #expect(state.liveEntries(ids: Set(ids)).count == count - 2)
    }

    @Test("a run of recovered events registers each in order, and ignores repeats, out-of-order and keyless ones")
    func recoverEventsRun() {
        var state = JournalState(segmentCapacity: 1 << 20, maxTotalBytes: 1 << 30)
        let (first, second, third) = (UUID(), UUID(), UUID())
        state.recoverSegment(number: 3, size: 0)
        let ignored = state.recoverEvents(
            [
                event(5, first, offset: 25),
                event(6, second, offset: 59),
                event(7, first, offset: 93),  // repeats a live id
                event(6, third, offset: 127),  // out of order
                event(8, third, offset: 161, hasKey: false),  // no id
                event(9, third, offset: 195),
            ][...]
        )
        #expect(ignored == 3)
        #expect(state.entries.map(\.sequence) == [5, 6, 9])
        #expect(state.entries.map(\.id) == [first, second, third])
        #expect(state.entries.map(\.offset) == [25, 59, 195])
        #expect(state.entries.allSatisfy { $0.segment == 3 && $0.payloadLength == 10 && $0.isLive })
        #expect(state.liveCount == 3)
        #expect(state.segments.map(\.liveCount) == [3])
        #expect(state.nextSequence == 10)
        // The first occurrence keeps the id: removing it removes the entry with sequence 5.
        #expect(state.remove(ids: [first]).map(\.sequence) == [5])
    }

    @Test("recovered events after a reserved sequence must lie above it, and without a segment none is registered")
    func recoverEventsBounds() {
        var state = JournalState(segmentCapacity: 1 << 20, maxTotalBytes: 1 << 30)
        #expect(state.recoverEvents([event(1, UUID(), offset: 25)][...]) == 1)
        state.recoverSegment(number: 1, size: 0)
        state.reserveSequence(below: 4)
        #expect(state.recoverEvents([event(3, UUID(), offset: 25), event(4, UUID(), offset: 59)][...]) == 1)
        #expect(state.entries.map(\.sequence) == [4])
        #expect(state.liveCount == 1)
    }
}
