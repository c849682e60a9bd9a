import Foundation
import Testing

@testable import ActuateReporting

@Suite("Journal segment check")
struct JournalSegmentCheckTests {
    /// A segment of `count` events after a header, with a torn last record when `torn`.
    func segment(events count: Int, torn: Bool = false) throws -> [UInt8] {
        var bytes: [UInt8] = []
        JournalRecord.append(kind: .segmentHeader, sequence: 1, to: &bytes) { $0.append(1) }
        for sequence in 1...UInt64(count) {
            let event = ReportEvent(type: "executed", timestamp: Date(), sessionID: "s", anonymousID: "a")
            try JournalRecord.append(kind: .event, sequence: sequence, to: &bytes) {
                try ReportEventCodec.encode(event, into: &$0)
            }
        }
        if torn { bytes.removeLast(7) }
        return bytes
    }

    @Test("checks started ahead give, in any order of taking, what checking each segment on this thread gives")
    func resultsMatchDirectCheck() throws {
        let segments = try (0..<12).map { try segment(events: 20 + $0, torn: $0 == 11) }
        let checks = segments.enumerated().map { index, bytes in
            JournalSegmentCheck(number: UInt64(index + 1), maxPayload: 1 << 20) { bytes }
        }
        for index in [5, 0, 11, 1, 2, 3, 4, 6, 7, 8, 9, 10] {
            let checked = try checks[index].result()
            let direct = JournalCheckedSegment(number: UInt64(index + 1), bytes: segments[index], maxPayload: 1 << 20)
            #expect(checked.number == direct.number)
            #expect(checked.bytes == direct.bytes)
            #expect(checked.summary == direct.summary)
            #expect(checked.records.map(\.sequence) == direct.records.map(\.sequence))
            #expect(checked.records.map(\.key) == direct.records.map(\.key))
            #expect(checked.records.map(\.offset) == direct.records.map(\.offset))
            // A header and 20 + index events, less the torn last one of the last segment.
            #expect(checked.records.count == (index == 11 ? 20 + index : 21 + index))
            #expect((checked.summary.tailBytes > 0) == (index == 11))
            #expect(checked.records.allSatisfy { $0.hasKey == ($0.kind == .event) })
        }
    }

    @Test("a check that reads its segment gives what the read bytes give, or throws what the read threw")
    func readingChecks() throws {
        let bytes = try segment(events: 30)
        let reading = JournalSegmentCheck(number: 4, maxPayload: 1 << 20) { bytes }
        let checked = try reading.result()
        #expect(checked.bytes == bytes)
        #expect(checked.records.count == 31)
        let failing = JournalSegmentCheck(number: 5, maxPayload: 1 << 20) {
            throw EventStoreError.ioFailed(path: "segment 5", reason: "test")
        }
        #expect(throws: EventStoreError.self) { try failing.result() }
    }
}
