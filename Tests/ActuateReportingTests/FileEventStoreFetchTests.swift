import ActuateTesting
import Foundation
import Synchronization
import Testing

@testable import ActuateReporting

@Suite("FileEventStore fetch")
struct FileEventStoreFetchTests {
    let temporary = TemporaryDirectory()

    func open(segmentSize: Int = 1 << 20, scheduler: TestScheduler) throws -> FileEventStore {
        let configuration = FileEventStoreConfiguration(
            durability: .groupCommit(interval: .milliseconds(5)),
            segmentSize: segmentSize,
            scheduler: scheduler
        )
        return try FileEventStore(directory: temporary.url, configuration: configuration)
    }

    @Test("fetch leaves the tombstones of an acknowledged batch to the scheduled write, which still makes them durable")
    func fetchLeavesTombstonesToTheScheduledWrite() throws {
        let scheduler = TestScheduler()
        let store = try open(scheduler: scheduler)
        let events = StoreTestEvents.events(0..<10)
        for event in events { try store.append(event) }
        try store.flush()
        let writes = Mutex(0)
        store.observeWrites { writes.withLock { $0 += 1 } }
        let first = try store.fetch(count: 5, maxBytes: .max)
        try store.remove(ids: Set(first.map(\.id)))
        #expect(try store.fetch(count: 100, maxBytes: .max) == Array(events[5...]))
        #expect(writes.withLock { $0 } == 0)
        scheduler.advance(by: .milliseconds(5))
        #expect(writes.withLock { $0 } == 1)
        // The scheduled write put the tombstones on disk: a store reopened without closing this one sees them.
        let copy = temporary.url.deletingLastPathComponent().appending(path: "copy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: temporary.url, to: copy)
        try? FileManager.default.removeItem(at: copy.appending(path: StoreLock.fileName))
        let reopened = try FileEventStore(
            directory: copy,
            configuration: FileEventStoreConfiguration(scheduler: TestScheduler())
        )
        #expect(try reopened.fetch(count: 100, maxBytes: .max) == Array(events[5...]))
        try reopened.close()
        try store.close()
    }

    @Test("fetch writes and syncs queued events before it returns them")
    func fetchWritesQueuedEventsFirst() throws {
        let scheduler = TestScheduler()
        let store = try open(scheduler: scheduler)
        let writes = Mutex(0)
        store.observeWrites { writes.withLock { $0 += 1 } }
        let events = StoreTestEvents.events(0..<4)
        for event in events { try store.append(event) }
        #expect(try store.fetch(count: 10, maxBytes: .max) == events)
        #expect(writes.withLock { $0 } == 1)
        // A tombstone queued behind new events goes out with them.
        try store.remove(ids: [events[0].id])
        try store.append(StoreTestEvents.event(at: 4))
        #expect(try store.fetch(count: 10, maxBytes: .max) == Array(events[1...]) + [StoreTestEvents.event(at: 4)])
        #expect(writes.withLock { $0 } == 2)
        try store.close()
    }

    @Test("fetch reads events spread over segments and between removed ones, whole or cut by size")
    func fetchAcrossSegmentsAndGaps() throws {
        let store = try open(segmentSize: 4096, scheduler: TestScheduler())
        let memory = MemoryEventStore()
        let events = StoreTestEvents.events(0..<120)
        for event in events {
            try store.append(event)
            try memory.append(event)
        }
        let removed = Set(events.enumerated().filter { $0.offset % 3 == 1 }.map(\.element.id))
        try store.remove(ids: removed)
        try memory.remove(ids: removed)
        try store.flush()
        #expect(try store.fetch(count: 1000, maxBytes: .max) == events.filter { !removed.contains($0.id) })
        for (count, maxBytes) in [(1000, 5_000), (7, .max), (50, 20_000), (1000, 1)] {
            #expect(try store.fetch(count: count, maxBytes: maxBytes) == memory.fetch(count: count, maxBytes: maxBytes))
        }
        try store.close()
    }

    @Test("the JSON a measured fetch keeps is the body's events, and changing the events drops it")
    func measuredFetchKeepsTheBodyJSON() throws {
        let store = try open(scheduler: TestScheduler())
        for event in StoreTestEvents.events(0..<30) { try store.append(event) }
        let sentAt = Date(timeIntervalSince1970: 1_767_225_600.5)
        for maxBytes in [1, 3_000, 100_000] {
            let (events, elements) = try store.fetchMeasured(count: 30, maxBytes: maxBytes)
            #expect(events == (try store.fetch(count: 30, maxBytes: maxBytes)))
            var batch = EventBatch(events: events, sentAt: sentAt)
            batch.actuateElements.bytes = elements
            #expect(elements != nil)
            #expect(batch.encoded(as: .actuate) == EventBatch(events: events, sentAt: sentAt).encoded(as: .actuate))
            #expect(batch == EventBatch(events: events, sentAt: sentAt))
            batch.events.removeLast()
            #expect(batch.actuateElements.bytes == nil)
            #expect(
                batch.encoded(as: .actuate)
                    == EventBatch(events: Array(events.dropLast()), sentAt: sentAt).encoded(as: .actuate)
            )
        }
        #expect(try store.fetchMeasured(count: 30, maxBytes: .max).elements == nil)
        try store.close()
    }
}
