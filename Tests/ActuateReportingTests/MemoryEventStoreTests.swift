import ActuateReporting
import Foundation
import Testing

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

    @Test("maxBytes limits a batch by JSON size and still returns one event")
    func maxBytes() throws {
        let store = MemoryEventStore()
        for event in StoreTestEvents.events(0..<5) { try store.append(event) }
        let first = try JSONEncoder().encode(StoreTestEvents.event(at: 0)).count
        let second = try JSONEncoder().encode(StoreTestEvents.event(at: 1)).count
        #expect(try store.fetch(count: 5, maxBytes: 1).count == 1)
        #expect(try store.fetch(count: 5, maxBytes: first + second).count == 2)
        #expect(try store.fetch(count: 5, maxBytes: first + second - 1).count == 1)
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
