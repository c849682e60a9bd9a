import Foundation
import Testing

@testable import ActuateReporting

@Suite("MemoryEventStore")
struct MemoryEventStoreTests {
    @Test("fetch returns the oldest first without removing, and remove takes out exactly the given ids")
    func appendFetchRemove() throws {
        let store = MemoryEventStore()
        let events = StoreTestEvents.events(0..<6)
        for event in events { try store.append(event) }
        #expect(try store.fetch(count: 2, maxBytes: .max) == Array(events[0..<2]))
        #expect(try store.count() == 6)
        try store.remove(ids: [events[0].id, events[3].id, UUID()])
        #expect(try store.fetch(count: 10, maxBytes: .max) == [events[1], events[2], events[4], events[5]])
    }

    @Test("maxBytes limits a batch by the bytes the batch body gives each event, and still returns one event")
    func maxBytes() throws {
        let store = MemoryEventStore()
        for event in StoreTestEvents.events(0..<5) { try store.append(event) }
        let first = wireBytes(StoreTestEvents.event(at: 0))
        let second = wireBytes(StoreTestEvents.event(at: 1))
        #expect(try store.fetch(count: 5, maxBytes: 1).count == 1)
        #expect(try store.fetch(count: 5, maxBytes: first + second).count == 2)
        #expect(try store.fetch(count: 5, maxBytes: first + second - 1).count == 1)
    }

    @Test("appending an id that is already stored does nothing, as in FileEventStore")
    func duplicateAppendIgnored() throws {
        let store = MemoryEventStore()
        try store.append(StoreTestEvents.event(at: 1))
        try store.append(StoreTestEvents.event(at: 1))
        #expect(try store.count() == 1)
        #expect(try store.fetch(count: 10, maxBytes: .max) == [StoreTestEvents.event(at: 1)])
    }

    @Test("draining in batches, with removals out of order, dead letters and drops, keeps order and counts")
    func drainKeepsOrder() throws {
        let store = MemoryEventStore(maxEvents: 9_000)
        let events = StoreTestEvents.events(0..<10_000)
        for event in events { try store.append(event) }
        #expect(store.droppedEventCount == 1_000)
        var expected = Array(events[1_000...])
        // Remove some events from the middle first, leaving holes that fetch must skip.
        let middle = Set(expected[4_000..<4_100].map(\.id))
        try store.remove(ids: middle)
        expected.removeAll { middle.contains($0.id) }
        try store.moveToDeadLetter(ids: [expected[10].id, expected[5].id], reason: "bad")
        #expect(try store.deadLetters().map(\.event) == [expected[5], expected[10]])
        expected.remove(at: 10)
        expected.remove(at: 5)
        var drained: [ReportEvent] = []
        while true {
            let batch = try store.fetch(count: 250, maxBytes: .max)
            guard !batch.isEmpty else { break }
            drained += batch
            try store.remove(ids: Set(batch.map(\.id)))
            #expect(try store.count() == expected.count - drained.count)
        }
        #expect(drained == expected)
        // Appending after a full drain, and past the cap again, still works.
        for event in StoreTestEvents.events(20_000..<29_500) { try store.append(event) }
        #expect(try store.fetch(count: 1, maxBytes: .max) == [StoreTestEvents.event(at: 20_500)])
        #expect(try store.count() == 9_000)
    }

    @Test("over maxEvents the oldest are dropped and counted")
    func dropsOldest() throws {
        let store = MemoryEventStore(maxEvents: 3)
        for event in StoreTestEvents.events(0..<5) { try store.append(event) }
        #expect(try store.fetch(count: 10, maxBytes: .max) == StoreTestEvents.events(2..<5))
        #expect(store.droppedEventCount == 2)
    }

    @Test("dead letters leave the queue with their reason")
    func deadLetters() throws {
        let store = MemoryEventStore()
        let events = StoreTestEvents.events(0..<3)
        for event in events { try store.append(event) }
        try store.moveToDeadLetter(ids: [events[1].id], reason: "HTTP 400")
        #expect(try store.count() == 2)
        #expect(try store.deadLetters() == [DeadLetter(event: events[1], reason: "HTTP 400")])
    }
}

/// The bytes an event takes in a batch body, with its separating comma: what `fetch`'s `maxBytes` counts.
func wireBytes(_ event: ReportEvent) -> Int {
    let empty = EventBatch(events: [], sentAt: Date(timeIntervalSince1970: 0)).encodedSize(as: .actuate)
    return EventBatch(events: [event], sentAt: Date(timeIntervalSince1970: 0)).encodedSize(as: .actuate) - empty + 1
}
