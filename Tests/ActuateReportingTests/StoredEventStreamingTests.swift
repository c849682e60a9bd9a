import Actuate
import ActuateTesting
import Foundation
import Synchronization
import Testing

@testable import ActuateReporting

/// A streaming store that counts how it is read, over a file store.
private final class CountingStore: StoredEventStreaming {
    let base: FileEventStore
    let reads = Mutex<(fetches: Int, pages: [Int])>((0, []))

    init(base: FileEventStore) { self.base = base }

    func append(_ event: ReportEvent) throws { try base.append(event) }
    func fetch(count: Int, maxBytes: Int) throws -> [ReportEvent] {
        reads.withLock { $0.fetches += 1 }
        return try base.fetch(count: count, maxBytes: maxBytes)
    }
    func remove(ids: Set<ReportEvent.ID>) throws { try base.remove(ids: ids) }
    func moveToDeadLetter(ids: Set<ReportEvent.ID>, reason: String) throws {
        try base.moveToDeadLetter(ids: ids, reason: reason)
    }
    func deadLetters() throws -> [DeadLetter] { try base.deadLetters() }
    func count() throws -> Int { try base.count() }
    var droppedEventCount: Int { base.droppedEventCount }

    func forEachStoredEvent(pageSize: Int, _ body: (ReportEvent) throws -> Void) throws {
        var cursor: UInt64 = 0
        while true {
            let page = try base.readPage(afterSequence: cursor, count: pageSize)
            reads.withLock { $0.pages.append(page.events.count) }
            for event in page.events { try body(event) }
            guard let next = page.next else { return }
            cursor = next
        }
    }

    func deadLetterCount() throws -> Int { try base.storedDeadLetterCount() }
}

/// A mix of hook and content events, index by index.
private func mixedEvent(_ index: Int) -> ReportEvent {
    let properties: [String: JSONValue]
    let type: String
    switch index % 4 {
    case 0:
        type = "action_ended"
        properties = [
            "analyticsId": .string("action-\(index % 3)"), "outcome": index % 8 == 0 ? "failure" : "success",
            "durationSeconds": .number(Double(index % 50) / 100), "source": index % 12 == 0 ? "openURL" : "application",
        ]
    case 1:
        type = "url_opened"
        properties = ["url": .string("shop://gone/\(index % 5)"), "result": index % 2 == 1 ? "noMatch" : "performed"]
    case 2:
        type = "executed"
        properties = EventProperties.content(.sampleAction(id: index % 7))
    default:
        type = "target"
        properties = EventProperties.content(.sampleAction(id: index % 7))
    }
    return ReportEvent(
        type: type,
        timestamp: Date(timeIntervalSince1970: 1_767_225_600 + Double(index)),
        sessionID: "session-\(index / 20)",
        anonymousID: "anon",
        properties: properties
    )
}

@Suite("Reading stores in pages for statistics")
struct StoredEventStreamingTests {
    private static func makeStore(_ directory: TemporaryDirectory) throws -> FileEventStore {
        try FileEventStore(
            directory: directory.url,
            configuration: FileEventStoreConfiguration(segmentSize: 16 << 10, scheduler: TestScheduler())
        )
    }

    @Test("pages cover every live event once, in order, while events are removed and appended between them")
    func pagesFollowTheJournal() throws {
        let directory = TemporaryDirectory()
        let store = try Self.makeStore(directory)
        let events = StoreTestEvents.events(0..<1_000)
        for event in events { try store.append(event) }

        var read: [ReportEvent] = []
        var cursor: UInt64 = 0
        var pages = 0
        while true {
            let page = try store.readPage(afterSequence: cursor, count: 64)
            #expect(page.events.count <= 64)
            read += page.events
            pages += 1
            if pages == 3 {
                // Remove some already read and some not yet read, and append new ones.
                try store.remove(ids: Set([events[10].id, events[500].id, events[501].id]))
                for event in StoreTestEvents.events(1_000..<1_010) { try store.append(event) }
            }
            guard let next = page.next else { break }
            cursor = next
        }
        let expected =
            events.filter { ![500, 501].contains(StoreTestEvents.index(of: $0)) }
            + StoreTestEvents.events(1_000..<1_010)
        #expect(read == expected)
        #expect(pages == expected.count / 64 + 1)
    }

    @Test("statistics read a file store in pages, never with fetch, and match the figures of the same events")
    func statisticsStream() throws {
        let directory = TemporaryDirectory()
        let base = try Self.makeStore(directory)
        let events = (0..<2_000).map(mixedEvent)
        for event in events { try base.append(event) }
        try base.moveToDeadLetter(ids: [events[3].id, events[7].id], reason: "HTTP 400 after 3 tries")
        let live = events.filter { $0.id != events[3].id && $0.id != events[7].id }
        let store = CountingStore(base: base)

        let streamed = try ReportingStatistics(store: store, pageSize: 128, attributionWindow: .seconds(60))
        let expected = ReportingStatistics(events: live, deadLetterCount: 2, attributionWindow: .seconds(60))
        #expect(streamed == expected)
        #expect(streamed.eventCount == 1_998)
        #expect(streamed[action: "action-0"]?.performed ?? 0 > 0)

        let reads = store.reads.withLock { $0 }
        #expect(reads.fetches == 0)
        #expect(reads.pages.allSatisfy { $0 <= 128 })
        #expect(reads.pages.reduce(0, +) == 1_998)
        #expect(reads.pages.count == 1_998 / 128 + 1)
    }

    @Test("the public initializer streams file and memory stores and gives the same figures")
    func publicInitializer() throws {
        let directory = TemporaryDirectory()
        let file = try Self.makeStore(directory)
        let memory = MemoryEventStore()
        let events = (0..<300).map(mixedEvent)
        for event in events {
            try file.append(event)
            try memory.append(event)
        }
        let fromFile = try ReportingStatistics(store: file)
        let fromMemory = try ReportingStatistics(store: memory)
        #expect(fromFile == ReportingStatistics(events: events))
        #expect(fromMemory == fromFile)
    }

    @Test("a closed store is a clear error, not a crash")
    func closedStore() throws {
        let directory = TemporaryDirectory()
        let store = try Self.makeStore(directory)
        try store.append(mixedEvent(0))
        try store.close()
        #expect(throws: ReportingError.self) { try ReportingStatistics(store: store) }
    }
}
