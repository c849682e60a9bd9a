import ActuateTesting
import Foundation
import Testing

@testable import ActuateReporting

/// The uploader reads the next batch from a ``FileEventStore`` while the one before it is in flight, and sends it
/// only when its events are then still the oldest stored.
@Suite("EventUploader reads the next batch ahead")
struct EventUploaderReadAheadTests {
    @Test("every batch after the first is read while the one before it is sent; each event arrives once, in order")
    func readsAheadOverLoopback() async throws {
        let directory = TemporaryDirectory()
        let store = try FileEventStore(directory: directory.url)
        let events = makeEvents(250)
        for event in events { try store.append(event) }
        try await TestCollector.with(script: []) { collector in
            let transport = try HTTPEventTransport(endpoint: collector.batchURL, apiKey: "read-ahead")
            let uploader = EventUploader(
                store: store,
                transport: transport,
                scheduler: TestScheduler(),
                configuration: EventUploader.Configuration(flushPolicies: [.manual], maxBatchCount: 50)
            )
            await uploader.flushNow()
            let stats = try await collector.stats(includeIDs: false)
            #expect(stats.requests == 5)
            #expect(stats.unique == 250)
            #expect(stats.duplicates == 0)
            #expect(uploader.status.batchesReadAhead == 4)
            #expect(uploader.status.eventsAcknowledged == 250)
            #expect(try store.count() == 0)
            let received = try await collector.events().map { event -> JSONValue? in
                guard case .object(let properties)? = event["properties"] else { return nil }
                return properties["seq"]
            }
            #expect(received == events.map { $0.properties["seq"] })
        }
    }

    @Test("a batch read ahead is sent only while its events are still the oldest stored, every one of them")
    func readAheadIsCheckedAgainstTheStore() throws {
        let directory = TemporaryDirectory()
        let store = try FileEventStore(directory: directory.url)
        let events = StoreTestEvents.events(0..<30)
        for event in events { try store.append(event) }
        let first = try store.fetchBatch(count: 10, maxBytes: 100_000, afterSequence: nil)
        let ahead = try store.fetchBatch(count: 10, maxBytes: 100_000, afterSequence: first.sequences.last)
        #expect(ahead.events == Array(events[10..<20]))
        #expect(try store.fetchMeasured(count: 10, maxBytes: 100_000).events == first.events)
        // While the batch in flight is stored, the one read ahead is not the oldest.
        #expect(try store.isOldestStored(first))
        #expect(try !store.isOldestStored(ahead))
        try store.remove(ids: Set(first.events.map(\.id)))
        #expect(try store.isOldestStored(ahead))
        // Events appended later come after it and change nothing.
        try store.append(StoreTestEvents.event(at: 30))
        #expect(try store.isOldestStored(ahead))
        // An event of it removed by someone else makes it stale, wherever that event is.
        try store.remove(ids: [events[15].id])
        #expect(try !store.isOldestStored(ahead))
        #expect(
            try store.fetchMeasured(count: 10, maxBytes: 100_000).events == Array(events[10..<15] + events[16..<21])
        )
        // The JSON read ahead is what the body of the same events is.
        let batch = EventBatch(events: ahead.events, sentAt: Date(timeIntervalSince1970: 0))
        let body = EventBatchEncoding.actuate.body(for: batch)
        var withElements = batch
        withElements.actuateElements.bytes = ahead.elements
        #expect(EventBatchEncoding.actuate.body(for: withElements) == body)
    }
}
