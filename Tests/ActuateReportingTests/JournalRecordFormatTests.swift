import ActuateTestSupport
import Foundation
import Testing

@testable import ActuateReporting

/// Journals written before version 2 are still read, and appended to in version 2.
@Suite("Journal record formats")
struct JournalRecordFormatTests {
    let temporary = TemporaryDirectory()

    func open() throws -> FileEventStore {
        try FileEventStore(directory: temporary.url, configuration: FileEventStoreConfiguration(durability: .synced))
    }

    func records(of file: URL) throws -> [JournalScannedRecord] {
        let bytes = try [UInt8](Data(contentsOf: file))
        var records: [JournalScannedRecord] = []
        _ = bytes.withUnsafeBytes { JournalScanner.scan($0, maxPayload: 1 << 20) { records.append($0) } }
        return records
    }

    @Test("new records are written in version 2")
    func writesVersion2() throws {
        let store = try open()
        for event in StoreTestEvents.events(0..<3) { try store.append(event) }
        try store.close()
        let segment = try #require(try TemporaryDirectory.segments(in: temporary.url).first)
        #expect(try JournalFormatRewriter.formats(of: segment) == Array(repeating: .version2, count: 4))
    }

    @Test("a version 1 journal opens whole, and appends after it are written in version 2")
    func readsVersion1AndAppendsVersion2() throws {
        do {
            let store = try open()
            for event in StoreTestEvents.events(0..<10) { try store.append(event) }
            try store.remove(ids: [StoreTestEvents.event(at: 3).id])
            try store.close()
        }
        try JournalFormatRewriter.rewriteJournal(in: temporary.url, as: .version1)
        let segment = try #require(try TemporaryDirectory.segments(in: temporary.url).first)
        #expect(try JournalFormatRewriter.formats(of: segment) == Array(repeating: .version1, count: 12))
        let expected = StoreTestEvents.events(0..<3) + StoreTestEvents.events(4..<10)
        do {
            let store = try open()
            #expect(store.recoveryReport.isClean)
            #expect(try store.fetch(count: 100, maxBytes: .max) == expected)
            try store.append(StoreTestEvents.event(at: 20))
            try store.close()
        }
        #expect(try JournalFormatRewriter.formats(of: segment) == Array(repeating: .version1, count: 12) + [.version2])
        let store = try open()
        #expect(store.recoveryReport.isClean)
        #expect(try store.fetch(count: 100, maxBytes: .max) == expected + [StoreTestEvents.event(at: 20)])
    }

    @Test("a record whose format byte is unknown is corrupt, even with a checksum that matches its bytes")
    func unknownFormatIsCorrupt() throws {
        do {
            let store = try open()
            for event in StoreTestEvents.events(0..<3) { try store.append(event) }
            try store.close()
        }
        let segment = try #require(try TemporaryDirectory.segments(in: temporary.url).first)
        let victim = try records(of: segment)[2]  // the header, then events 0…2: this is event 1
        var bytes = try [UInt8](Data(contentsOf: segment))
        bytes[victim.offset + 13] = 1
        let checksum = bytes.withUnsafeBytes { raw in
            WordMixChecksum.seal(
                WordMixChecksum.digest(UnsafeRawBufferPointer(rebasing: raw[victim.payload])),
                fields: raw.loadUnaligned(fromByteOffset: victim.offset + 8, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: victim.offset + 16, as: UInt64.self)
            )
        }
        withUnsafeBytes(of: checksum.littleEndian) {
            bytes.replaceSubrange((victim.offset + 4)..<(victim.offset + 8), with: $0)
        }
        try Data(bytes).write(to: segment)

        let store = try open()
        #expect(store.recoveryReport.corruptRegionsSkipped == 1)
        #expect(store.recoveryReport.corruptBytesSkipped == victim.payload.upperBound - victim.offset)
        #expect(
            try store.fetch(count: 100, maxBytes: .max) == [StoreTestEvents.event(at: 0), StoreTestEvents.event(at: 2)]
        )
    }
}
