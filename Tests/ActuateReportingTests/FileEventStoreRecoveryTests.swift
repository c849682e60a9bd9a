import ActuateTestSupport
import ActuateTesting
import Foundation
import Testing

@testable import ActuateReporting

@Suite("FileEventStore recovery")
struct FileEventStoreRecoveryTests {
    let temporary = TemporaryDirectory()

    func open(_ directory: URL? = nil, segmentSize: Int = 1 << 20) throws -> FileEventStore {
        try FileEventStore(
            directory: directory ?? temporary.url,
            configuration: FileEventStoreConfiguration(durability: .synced, segmentSize: segmentSize)
        )
    }

    /// Writes `count` events in `format` and closes the store.
    func write(_ count: Int, segmentSize: Int = 1 << 20, format: JournalRecordFormat = .current) throws {
        let store = try open(segmentSize: segmentSize)
        for event in StoreTestEvents.events(0..<count) { try store.append(event) }
        try store.close()
        try JournalFormatRewriter.rewriteJournal(in: temporary.url, as: format)
    }

    /// The valid records of a file, as the journal scanner sees them.
    func records(of file: URL) throws -> [JournalScannedRecord] {
        let bytes = try [UInt8](Data(contentsOf: file))
        var records: [JournalScannedRecord] = []
        _ = bytes.withUnsafeBytes { JournalScanner.scan($0, maxPayload: 1 << 20) { records.append($0) } }
        return records
    }

    func modify(_ file: URL, _ change: (inout [UInt8]) -> Void) throws {
        var bytes = try [UInt8](Data(contentsOf: file))
        change(&bytes)
        try Data(bytes).write(to: file)
    }

    @Test("CRC-32 matches the standard check value")
    func crcCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        let split = CRC32.checksum(Array("6789".utf8), continuing: CRC32.checksum(Array("12345".utf8)))
        #expect(split == 0xCBF4_3926)
        #expect(
            CRC32.checksum([UInt8](repeating: 0xAB, count: 1_000))
                != CRC32.checksum([UInt8](repeating: 0xAB, count: 999))
        )
    }

    @Test(
        "a torn last record is skipped and cut, and later appends are clean",
        arguments: JournalRecordFormat.allCases,
        [1, 5, 24, 30, -1]
    )
    func tornTail(format: JournalRecordFormat, keptBytesOfLastRecord: Int) throws {
        try write(10, format: format)
        let segment = try #require(try TemporaryDirectory.segments(in: temporary.url).last)
        let last = try #require(try records(of: segment).last)
        let kept = keptBytesOfLastRecord >= 0 ? keptBytesOfLastRecord : last.payload.upperBound - last.offset - 1
        try modify(segment) { $0.removeSubrange((last.offset + kept)...) }

        let store = try open()
        #expect(try store.fetch(count: 100, maxBytes: .max) == StoreTestEvents.events(0..<9))
        #expect(store.recoveryReport.tornTailBytesTruncated == kept)
        #expect(store.recoveryReport.corruptRegionsSkipped == 0)
        try store.append(StoreTestEvents.event(at: 20))
        try store.close()

        let again = try open()
        #expect(again.recoveryReport.isClean)
        #expect(
            try again.fetch(count: 100, maxBytes: .max) == StoreTestEvents.events(0..<9) + [
                StoreTestEvents.event(at: 20)
            ]
        )
    }

    @Test("garbage after the last record is cut and never read as data", arguments: JournalRecordFormat.allCases)
    func garbageTail(format: JournalRecordFormat) throws {
        try write(5, format: format)
        let segment = try #require(try TemporaryDirectory.segments(in: temporary.url).last)
        try modify(segment) { $0 += JournalRecord.magicBytes + [UInt8](repeating: 0x5A, count: 100) }
        let store = try open()
        #expect(try store.fetch(count: 100, maxBytes: .max) == StoreTestEvents.events(0..<5))
        #expect(store.recoveryReport.tornTailBytesTruncated == 104)
    }

    @Test(
        "a corrupt record in the middle is skipped and the records after it are kept",
        arguments: JournalRecordFormat.allCases,
        [0, 4, 8, 12, 13, 16, 30, -1]
    )
    func corruptMiddleRecord(format: JournalRecordFormat, byteInRecord: Int) throws {
        try write(10, format: format)
        let segment = try #require(try TemporaryDirectory.segments(in: temporary.url).first)
        let victim = try records(of: segment)[5]  // the header, then events 0…9: this is event 4
        let offset = byteInRecord >= 0 ? victim.offset + byteInRecord : victim.payload.upperBound - 1
        try modify(segment) { $0[offset] ^= 0x40 }

        let store = try open()
        let expected = StoreTestEvents.events(0..<4) + StoreTestEvents.events(5..<10)
        #expect(try store.fetch(count: 100, maxBytes: .max) == expected)
        #expect(store.recoveryReport.corruptRegionsSkipped == 1)
        #expect(store.recoveryReport.corruptBytesSkipped == victim.payload.upperBound - victim.offset)
        #expect(store.recoveryReport.tornTailBytesTruncated == 0)
    }

    @Test("a corrupt tombstone brings its events back rather than losing any", arguments: JournalRecordFormat.allCases)
    func corruptTombstone(format: JournalRecordFormat) throws {
        let events = StoreTestEvents.events(0..<6)
        do {
            let store = try open()
            for event in events { try store.append(event) }
            try store.remove(ids: [events[1].id, events[2].id])
            try store.append(StoreTestEvents.event(at: 6))
            try store.close()
        }
        try JournalFormatRewriter.rewriteJournal(in: temporary.url, as: format)
        let segment = try #require(try TemporaryDirectory.segments(in: temporary.url).first)
        let tombstone = try #require(try records(of: segment).first { $0.kind == .tombstone })
        try modify(segment) { $0[tombstone.payload.lowerBound] ^= 0x01 }
        let store = try open()
        #expect(try store.fetch(count: 100, maxBytes: .max) == StoreTestEvents.events(0..<7))
    }

    @Test(
        "a torn dead-letter record is cut and the earlier dead letters are kept",
        arguments: JournalRecordFormat.allCases
    )
    func tornDeadLetter(format: JournalRecordFormat) throws {
        let events = try StoreTestEvents.writeTwoDeadLetters(into: open())
        try JournalFormatRewriter.rewriteJournal(in: temporary.url, as: format)
        try modify(temporary.appending(JournalFiles.deadLetterFileName)) { $0.removeLast(3) }
        let store = try open()
        #expect(try store.deadLetters() == [DeadLetter(event: events[0], reason: "first")])
        #expect(try store.fetch(count: 10, maxBytes: .max) == [events[2]])
        try store.moveToDeadLetter(ids: [events[2].id], reason: "third")
        #expect(try store.deadLetters().map(\.reason) == ["first", "third"])
    }

    @Test("an event both queued and dead-lettered, as a crash between the two writes leaves it, is not queued")
    func deadLetterDeduplication() throws {
        let events = StoreTestEvents.events(0..<3)
        let copy = temporary.appending("queued-copy")
        do {
            let store = try open()
            for event in events { try store.append(event) }
            try TemporaryDirectory.copyFiles(of: temporary.url, to: copy)
            try store.moveToDeadLetter(ids: [events[1].id], reason: "gone")
            try store.close()
        }
        // The segments from before the move, with the dead-letter file from after it.
        for segment in try TemporaryDirectory.segments(in: temporary.url) {
            try FileManager.default.removeItem(at: segment)
        }
        for segment in try TemporaryDirectory.segments(in: copy) {
            try FileManager.default.copyItem(at: segment, to: temporary.url.appending(path: segment.lastPathComponent))
        }
        let store = try open()
        #expect(try store.fetch(count: 10, maxBytes: .max) == [events[0], events[2]])
        #expect(try store.deadLetters().map(\.event) == [events[1]])
    }

    @Test(
        "random corruption never crashes recovery and never yields an event that was not written",
        arguments: JournalRecordFormat.allCases
    )
    func randomCorruption(format: JournalRecordFormat) throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("FileEventStore random corruption seed: \(seed)")
        var generator = SplitMix64(seed: seed)
        try write(60, segmentSize: 4096, format: format)
        let originals = Set(StoreTestEvents.events(0..<60))
        for round in 0..<20 {
            let copy = temporary.appending("round-\(round)")
            try TemporaryDirectory.copyFiles(of: temporary.url, to: copy)
            let segments = try TemporaryDirectory.segments(in: copy)
            for _ in 0..<3 {
                let segment = segments[Int.random(in: 0..<segments.count, using: &generator)]
                try modify(segment) { bytes in
                    guard !bytes.isEmpty else { return }
                    if Bool.random(using: &generator) {
                        bytes[Int.random(in: 0..<bytes.count, using: &generator)] ^= UInt8.random(
                            in: 1...255,
                            using: &generator
                        )
                    } else {
                        bytes.removeLast(Int.random(in: 0..<min(64, bytes.count), using: &generator))
                    }
                }
            }
            let store = try open(copy, segmentSize: 4096)
            let recovered = try store.fetch(count: 100, maxBytes: .max)
            #expect(recovered.allSatisfy(originals.contains), "seed \(seed) round \(round)")
            let indices = recovered.compactMap(StoreTestEvents.index(of:))
            #expect(indices == indices.sorted(), "seed \(seed) round \(round)")
        }
    }
}
