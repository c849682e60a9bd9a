import ActuateTesting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateReporting

// The dead-letter file on real files: capped, with the oldest letters dropped and counted, and read a page at a
// time, never whole.

@Suite("Dead-letter file: cap and paging")
struct DeadLetterFileTests {
    private static func configuration(maxDeadLetterBytes: Int) -> FileEventStoreConfiguration {
        FileEventStoreConfiguration(
            durability: .synced,
            segmentSize: 16 << 10,
            maxTotalBytes: 64 << 20,
            maxDeadLetterBytes: maxDeadLetterBytes
        )
    }

    private static func fileSize(_ url: URL) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? -1
    }

    @Test("the file stays within its cap: the oldest letters are dropped and counted, and the count survives reopening")
    func cap() throws {
        let directory = TemporaryDirectory()
        let configuration = Self.configuration(maxDeadLetterBytes: 8192)
        let store = try FileEventStore(directory: directory.url, configuration: configuration)
        let events = StoreTestEvents.events(0..<200)
        for event in events { try store.append(event) }
        let file = directory.appending(JournalFiles.deadLetterFileName)
        var sizes: [Int] = []
        for batch in 0..<20 {
            let moved = events[(batch * 10)..<(batch * 10 + 10)]
            try store.moveToDeadLetter(ids: Set(moved.map(\.id)), reason: "batch \(batch)")
            sizes.append(try Self.fileSize(file))
            let letters = try store.deadLetters()
            #expect(letters.count + store.droppedDeadLetterCount == batch * 10 + 10)
            // What is kept is always the newest letters, in order.
            #expect(letters.map(\.event) == Array(events[..<(batch * 10 + 10)].suffix(letters.count)))
        }
        #expect(sizes.allSatisfy { $0 <= 8192 }, "\(sizes)")
        #expect(sizes.last ?? 0 > 3000, "the file is used up to its cap, not emptied")
        let dropped = store.droppedDeadLetterCount
        let kept = try store.deadLetters()
        #expect(dropped > 100)
        #expect(kept.last?.reason == "batch 19")
        #expect(try store.count() == 0)
        try store.close()

        let reopened = try FileEventStore(directory: directory.url, configuration: configuration)
        #expect(reopened.droppedDeadLetterCount == dropped)
        #expect(try reopened.deadLetters() == kept)
        #expect(reopened.recoveryReport.damage.isEmpty)
        #expect(try reopened.count() == 0, "no dropped letter's event came back")
        // No temporary file of a rewrite is left behind.
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(!names.contains { $0.hasSuffix(".compacting") })
        try reopened.close()
    }

    @Test("a batch larger than the cap keeps its newest letters; a letter alone over the cap is still kept")
    func batchOverCap() throws {
        let directory = TemporaryDirectory()
        let store = try FileEventStore(
            directory: directory.url,
            configuration: Self.configuration(maxDeadLetterBytes: 4096)
        )
        let events = StoreTestEvents.events(0..<100)
        for event in events { try store.append(event) }
        try store.moveToDeadLetter(ids: Set(events.map(\.id)), reason: "all at once")
        let kept = try store.deadLetters()
        #expect(!kept.isEmpty)
        #expect(kept.map(\.event) == Array(events.suffix(kept.count)))
        #expect(store.droppedDeadLetterCount == 100 - kept.count)
        #expect(try Self.fileSize(directory.appending(JournalFiles.deadLetterFileName)) <= 4096)

        let big = ReportEvent(
            type: "big",
            timestamp: Date(timeIntervalSince1970: 1_767_225_600),
            sessionID: "s",
            anonymousID: "a",
            properties: ["x": .string(String(repeating: "y", count: 6000))]
        )
        try store.append(big)
        try store.moveToDeadLetter(ids: [big.id], reason: "too big for the cap")
        #expect(try store.deadLetters().map(\.event) == [big])
        #expect(store.droppedDeadLetterCount == 100)
        try store.close()
    }

    @Test("the file is read a page at a time when the store opens and when letters are listed")
    func paging() throws {
        let directory = TemporaryDirectory()
        let configuration = Self.configuration(maxDeadLetterBytes: 4 << 20)
        let store = try FileEventStore(directory: directory.url, configuration: configuration)
        let events = (0..<3000).map { index in
            ReportEvent(
                type: "paged",
                timestamp: Date(timeIntervalSince1970: 1_767_225_600),
                sessionID: "s",
                anonymousID: "a",
                properties: ["index": .number(Double(index)), "pad": .string(String(repeating: "p", count: 300))]
            )
        }
        for chunk in stride(from: 0, to: events.count, by: 500) {
            let slice = events[chunk..<(chunk + 500)]
            for event in slice { try store.append(event) }
            try store.moveToDeadLetter(ids: Set(slice.map(\.id)), reason: "refused")
        }
        try store.close()
        let file = directory.appending(JournalFiles.deadLetterFileName)
        let size = try Self.fileSize(file)
        #expect(size > 16 * DeadLetterFile.defaultPageBytes)

        let reopened = try FileEventStore(directory: directory.url, configuration: configuration)
        #expect(reopened.recoveryReport.deadLettersRecovered == 3000)
        #expect(reopened.recoveryReport.damage.isEmpty)
        #expect(try reopened.deadLetters().map(\.event) == events)
        #expect(reopened.largestDeadLetterRead <= DeadLetterFile.defaultPageBytes)
        #expect(reopened.largestDeadLetterRead > 0)
        try reopened.close()
    }

    @Test("damage in the middle of a file many pages long is found, reported and skipped exactly")
    func damageAcrossPages() throws {
        let directory = TemporaryDirectory()
        let configuration = Self.configuration(maxDeadLetterBytes: 4 << 20)
        let store = try FileEventStore(directory: directory.url, configuration: configuration)
        let events = StoreTestEvents.events(0..<2000)
        for event in events { try store.append(event) }
        for (index, event) in events.enumerated() {
            try store.moveToDeadLetter(ids: [event.id], reason: "letter \(index)")
        }
        try store.close()
        let file = directory.appending(JournalFiles.deadLetterFileName)
        var bytes = try Data(contentsOf: file)
        #expect(bytes.count > 4 * DeadLetterFile.defaultPageBytes)
        // Flip a byte inside a letter well past the first page, and cut the last letter in half.
        let flipped = 3 * DeadLetterFile.defaultPageBytes + 100
        bytes[flipped] ^= 0xFF
        let torn = bytes.count - 40
        try bytes.prefix(torn).write(to: file)

        let reopened = try FileEventStore(directory: directory.url, configuration: configuration)
        let damage = reopened.recoveryReport.damage
        #expect(damage.count == 2)
        let corrupt = try #require(damage.first { $0.kind == .corruptRecords })
        #expect(corrupt.file == JournalFiles.deadLetterFileName)
        #expect(corrupt.byteRange.contains(flipped))
        #expect(corrupt.byteRange.count < 400, "only the damaged letter: \(corrupt.byteRange)")
        #expect(damage.contains { $0.kind == .tornTail && $0.byteRange.upperBound == torn })
        let letters = try reopened.deadLetters()
        #expect(letters.count == 1998)
        #expect(letters.first?.reason == "letter 0")
        #expect(letters.last?.reason == "letter 1998")
        #expect(reopened.largestDeadLetterRead <= DeadLetterFile.defaultPageBytes)
        try reopened.close()
    }

    @Test("a reason longer than 4,096 bytes is cut, so no letter outgrows what recovery reads")
    func longReason() throws {
        let directory = TemporaryDirectory()
        let configuration = Self.configuration(maxDeadLetterBytes: 1 << 20)
        let store = try FileEventStore(directory: directory.url, configuration: configuration)
        let event = StoreTestEvents.event(at: 1)
        try store.append(event)
        try store.moveToDeadLetter(ids: [event.id], reason: String(repeating: "é", count: 10_000))
        #expect(try store.deadLetters().first?.reason == String(repeating: "é", count: 2048))
        try store.close()
        let reopened = try FileEventStore(directory: directory.url, configuration: configuration)
        #expect(try reopened.deadLetters().map(\.event) == [event])
        try reopened.close()
    }

    @Test("a dead-letter cap below 4 KiB is refused")
    func invalidCap() {
        #expect(throws: EventStoreError.invalidConfiguration(reason: "maxDeadLetterBytes must be at least 4 KiB")) {
            try FileEventStore(
                directory: TemporaryDirectory().url,
                configuration: Self.configuration(maxDeadLetterBytes: 4095)
            )
        }
    }
}
