import ActuateFuzzEntryPoints
import Foundation
import Testing

@testable import ActuateReporting

/// A fuzz finding (`Tests/Fuzz/JournalRecord/corpus/crash-largest-sequence.bin`): a record with a valid checksum
/// and a sequence near `UInt64.max` made recovery or the next append overflow and trap. Such a record is damage.
@Suite("Journal sequence limit")
struct JournalSequenceLimitTests {
    @Test(
        "A valid-checksum record claiming the largest sequence is reported as damage, and appends go on",
        arguments: [
            UInt64.max, UInt64.max - 1, JournalRecord.sequenceLimit,
        ]
    )
    func largestSequence(sequence: UInt64) throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        var segment: [UInt8] = []
        JournalRecord.append(kind: .segmentHeader, sequence: 1, to: &segment) { _ in }
        JournalRecord.append(kind: .event, sequence: 1, to: &segment) {
            try! ReportEventCodec.encode(StoreTestEvents.event(at: 1), into: &$0)
        }
        JournalRecord.append(kind: .event, sequence: sequence, to: &segment) {
            try! ReportEventCodec.encode(StoreTestEvents.event(at: 2), into: &$0)
        }
        try Data(segment).write(to: directory.appending(JournalFiles.fileName(ofSegment: 1)))

        let store = try FileEventStore(
            directory: directory.url,
            configuration: FileEventStoreConfiguration(durability: .synced)
        )
        #expect(!store.recoveryReport.isClean)
        #expect(try store.fetch(count: 10, maxBytes: 1 << 20).map(\.id) == [StoreTestEvents.event(at: 1).id])
        try store.append(StoreTestEvents.event(at: 3))
        try store.append(StoreTestEvents.event(at: 4))
        #expect(try store.count() == 3)
        try store.close()
    }

    @Test("The fuzzer's input that trapped now opens with damage reported")
    func fuzzFinding() throws {
        let input = try Data(
            contentsOf: URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appending(path: "Fuzz/JournalRecord/corpus/crash-largest-sequence.bin")
        )
        let outcome = ReportingFuzzing.journalRecord(input)
        #expect(outcome.damageReported)
        #expect(outcome.eventsRecovered == 0)
    }
}
