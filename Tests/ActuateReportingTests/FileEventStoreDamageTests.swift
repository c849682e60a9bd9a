import ActuateTestSupport
import Foundation
import Testing

@testable import ActuateReporting

/// Damage anywhere in the journal is reported with its file and byte range, and a damaged segment is copied to
/// the quarantine before anything in it is cut or deleted.
@Suite("FileEventStore damage reports")
struct FileEventStoreDamageTests {
    let temporary = TemporaryDirectory()
    static let segmentSize = 4096

    func open(maxTotalBytes: Int = 64 << 20) throws -> FileEventStore {
        try FileEventStore(
            directory: temporary.url,
            configuration: FileEventStoreConfiguration(
                durability: .synced,
                segmentSize: Self.segmentSize,
                maxTotalBytes: maxTotalBytes
            )
        )
    }

    /// Writes `count` events over several 4 KiB segments in `format` and closes the store; returns the segment
    /// files.
    func write(_ count: Int, _ format: JournalRecordFormat) throws -> [URL] {
        let store = try open()
        for event in StoreTestEvents.events(0..<count) { try store.append(event) }
        try store.close()
        try JournalFormatRewriter.rewriteJournal(in: temporary.url, as: format)
        return try TemporaryDirectory.segments(in: temporary.url)
    }

    func records(of file: URL) throws -> [JournalScannedRecord] {
        let bytes = try [UInt8](Data(contentsOf: file))
        var records: [JournalScannedRecord] = []
        _ = bytes.withUnsafeBytes { JournalScanner.scan($0, maxPayload: 1 << 20) { records.append($0) } }
        return records
    }

    /// The indices of the events a segment holds.
    func eventIndices(of file: URL) throws -> [Int] {
        let bytes = try [UInt8](Data(contentsOf: file))
        return try records(of: file).filter { $0.kind == .event }.map { record in
            try bytes.withUnsafeBytes { raw in
                var reader = JournalByteReader(UnsafeRawBufferPointer(rebasing: raw[record.payload]))
                return try #require(StoreTestEvents.index(of: try ReportEventCodec.decode(from: &reader)))
            }
        }
    }

    func modify(_ file: URL, _ change: (inout [UInt8]) -> Void) throws -> [UInt8] {
        var bytes = try [UInt8](Data(contentsOf: file))
        change(&bytes)
        try Data(bytes).write(to: file)
        return bytes
    }

    func quarantined(_ name: String?) throws -> [UInt8] {
        let name = try #require(name)
        return try [UInt8](Data(contentsOf: temporary.appending(name)))
    }

    /// The report of one damaged region in `file`, whose copy is in the quarantine.
    func quarantinedDamage(in file: URL, _ byteRange: Range<Int>, _ kind: JournalDamage.Kind) -> [JournalDamage] {
        [
            JournalDamage(
                file: file.lastPathComponent,
                byteRange: byteRange,
                kind: kind,
                quarantinedAs: file.lastPathComponent + ".damaged"
            )
        ]
    }

    func remainingIndices(_ store: FileEventStore) throws -> [Int] {
        try store.fetch(count: 1_000, maxBytes: .max).compactMap(StoreTestEvents.index(of:))
    }

    @Test(
        "a flipped byte in the last record of an older segment is reported with its range and quarantined",
        arguments: JournalRecordFormat.allCases
    )
    func flippedByteInOlderSegment(format: JournalRecordFormat) throws {
        let segments = try write(80, format)
        try #require(segments.count >= 3)
        let victim = segments[0]
        let last = try #require(try records(of: victim).last)
        let lost = try #require(try eventIndices(of: victim).last)
        let found = try modify(victim) { $0[last.payload.lowerBound + 3] ^= 0x20 }

        let store = try open()
        let report = store.recoveryReport
        #expect(!report.isClean)
        #expect(report.corruptRegionsSkipped == 1)
        #expect(report.corruptBytesSkipped == found.count - last.offset)
        #expect(
            report.damage == quarantinedDamage(in: victim, last.offset..<found.count, .damagedEnd)
        )
        #expect(try quarantined(report.damage.first?.quarantinedAs) == found)
        #expect(try remainingIndices(store) == Array(0..<80).filter { $0 != lost })
    }

    @Test("an older segment cut through a record reports its damaged end", arguments: JournalRecordFormat.allCases)
    func olderSegmentCutThroughRecord(format: JournalRecordFormat) throws {
        let segments = try write(80, format)
        let victim = segments[1]
        let last = try #require(try records(of: victim).last)
        let lost = try #require(try eventIndices(of: victim).last)
        let found = try modify(victim) { $0.removeLast(10) }

        let store = try open()
        #expect(
            store.recoveryReport.damage == quarantinedDamage(in: victim, last.offset..<found.count, .damagedEnd)
        )
        #expect(store.recoveryReport.corruptRegionsSkipped == 1)
        #expect(try remainingIndices(store) == Array(0..<80).filter { $0 != lost })
    }

    @Test(
        "an older segment cut at a record boundary reports the missing records, found from the next header",
        arguments: JournalRecordFormat.allCases
    )
    func olderSegmentCutAtBoundary(format: JournalRecordFormat) throws {
        let segments = try write(80, format)
        let victim = segments[0]
        let records = try records(of: victim)
        let indices = try eventIndices(of: victim)
        let cut = records[records.count - 2].offset  // drops the last two events whole
        let found = try modify(victim) { $0.removeSubrange(cut...) }

        let store = try open()
        #expect(!store.recoveryReport.isClean)
        #expect(store.recoveryReport.corruptRegionsSkipped == 1)
        #expect(
            store.recoveryReport.damage == quarantinedDamage(in: victim, found.count..<found.count, .missingRecords)
        )
        #expect(try quarantined(store.recoveryReport.damage.first?.quarantinedAs) == found)
        #expect(try remainingIndices(store) == Array(0..<80).filter { !indices.suffix(2).contains($0) })
    }

    @Test(
        "a middle segment replaced by random bytes is reported and kept in quarantine, not deleted unseen",
        arguments: JournalRecordFormat.allCases
    )
    func middleSegmentReplacedByRandomBytes(format: JournalRecordFormat) throws {
        let segments = try write(80, format)
        try #require(segments.count >= 3)
        let victim = segments[1]
        let lostIndices = try eventIndices(of: victim)
        var generator = SplitMix64(seed: 99)
        let found = try modify(victim) { bytes in
            bytes = (0..<bytes.count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }

        let store = try open()
        #expect(!store.recoveryReport.isClean)
        #expect(
            store.recoveryReport.damage == quarantinedDamage(in: victim, 0..<found.count, .damagedEnd)
        )
        // The segment itself holds no live events and is deleted; its copy is what is left to inspect.
        #expect(!FileManager.default.fileExists(atPath: victim.path))
        #expect(try quarantined(store.recoveryReport.damage.first?.quarantinedAs) == found)
        #expect(try remainingIndices(store) == Array(0..<80).filter { !lostIndices.contains($0) })
    }

    @Test(
        "a torn newest segment is reported as a torn tail with its range, cut, and quarantined",
        arguments: JournalRecordFormat.allCases
    )
    func tornNewestSegment(format: JournalRecordFormat) throws {
        let segments = try write(80, format)
        let newest = try #require(segments.last)
        let last = try #require(try records(of: newest).last)
        let lost = try #require(try eventIndices(of: newest).last)
        let found = try modify(newest) { $0.removeLast(7) }

        let store = try open()
        #expect(store.recoveryReport.corruptRegionsSkipped == 0)
        #expect(store.recoveryReport.tornTailBytesTruncated == found.count - last.offset)
        #expect(
            store.recoveryReport.damage == quarantinedDamage(in: newest, last.offset..<found.count, .tornTail)
        )
        #expect(try quarantined(store.recoveryReport.damage.first?.quarantinedAs) == found)
        #expect(try remainingIndices(store) == Array(0..<80).filter { $0 != lost })
        try store.close()
        #expect(try open().recoveryReport.isClean)
    }

    @Test("damage in the dead-letter file is reported with its range", arguments: JournalRecordFormat.allCases)
    func damagedDeadLetterFile(format: JournalRecordFormat) throws {
        _ = try StoreTestEvents.writeTwoDeadLetters(into: open())
        try JournalFormatRewriter.rewriteJournal(in: temporary.url, as: format)
        let file = temporary.appending(JournalFiles.deadLetterFileName)
        let found = try modify(file) { $0[30] ^= 0x01 }
        let second = try #require(try records(of: file).first)
        let store = try open()
        #expect(
            store.recoveryReport.damage == [
                JournalDamage(
                    file: JournalFiles.deadLetterFileName,
                    byteRange: 0..<second.offset,
                    kind: .corruptRecords
                )
            ]
        )
        #expect(found.count > second.offset)
        #expect(try store.deadLetters().map(\.reason) == ["second"])
    }

    @Test(
        "quarantined copies stay within a quarter of the disk cap, and copies plus segments within the cap",
        arguments: JournalRecordFormat.allCases
    )
    func quarantineStaysUnderTheCap(format: JournalRecordFormat) throws {
        let cap = 8 * Self.segmentSize
        let segments = try write(120, format)
        try #require(segments.count >= 4)
        // Damage the three oldest segments: their copies need more than the quarantine's quarter of the cap.
        for victim in segments.prefix(3) {
            let last = try #require(try records(of: victim).last)
            _ = try modify(victim) { $0[last.payload.lowerBound] ^= 0x01 }
        }
        let store = try open(maxTotalBytes: cap)
        let damage = store.recoveryReport.damage
        #expect(damage.map(\.file) == segments.prefix(3).map(\.lastPathComponent))
        let copies = try FileManager.default.contentsOfDirectory(atPath: temporary.url.path)
            .filter { $0.hasSuffix(".damaged") }
        #expect(Set(copies) == Set(damage.compactMap(\.quarantinedAs)))
        #expect(copies.contains(segments[2].lastPathComponent + ".damaged"), "the newest damage is kept")
        #expect(!copies.contains(segments[0].lastPathComponent + ".damaged"), "the oldest copy makes room")
        for event in StoreTestEvents.events(1_000..<1_400) { try store.append(event) }
        let total = try FileManager.default.contentsOfDirectory(atPath: temporary.url.path)
            .filter { $0.hasSuffix(".journal") && $0.hasPrefix("segment-") || $0.hasSuffix(".damaged") }
            .map { try FileManager.default.attributesOfItem(atPath: temporary.appending($0).path)[.size] as? Int ?? 0 }
        #expect(total.reduce(0, +) <= cap)
        let quarantineBytes = copies.map { name in
            (try? FileManager.default.attributesOfItem(atPath: temporary.appending(name).path)[.size] as? Int) ?? 0
        }
        #expect(quarantineBytes.reduce(0, +) <= cap / 4)
    }
}
