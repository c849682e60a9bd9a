import ActuateTestSupport
import ActuateTesting
import Foundation
import Testing

@testable import ActuateReporting

/// Events of 1.1 to 3.2 KB, the sizes with which the old cap let batches grow past 475 KB.
private func largeEvents(_ count: Int, seed: UInt64) -> [ReportEvent] {
    var generator = SplitMix64(seed: seed)
    var events: [ReportEvent] = []
    for index in 0..<count {
        let blob = String(repeating: "é\"x", count: Int.random(in: 190...610, using: &generator))
        let properties: [String: JSONValue] = [
            "seq": .number(Double(index)), "blob": .string(blob), "ratio": .number(Double(index) / 3),
        ]
        let offset = Double(index) * 0.137
        events.append(
            ReportEvent(
                type: index % 7 == 0 ? "identify" : "executed",
                timestamp: Date(timeIntervalSince1970: 1_767_225_600 + offset),
                sessionID: "session-\(index / 50)",
                anonymousID: "anon-1",
                userID: index % 3 == 0 ? "user-\(index)" : nil,
                properties: properties
            )
        )
    }
    return events
}

/// The size of the body of a batch of `events`.
private func bodySize(_ events: some Collection<ReportEvent>, _ encoding: EventBatchEncoding) -> Int {
    EventBatch(events: Array(events), sentAt: Date(timeIntervalSince1970: 1_767_225_600)).encodedSize(as: encoding)
}

@Suite("Batch size caps")
struct EventBatchSizeTests {
    @Test("the size formula gives exactly the bytes the writer sends", arguments: EventBatchEncoding.allCases)
    func sizeMatchesBody(encoding: EventBatchEncoding) {
        var events = largeEvents(6, seed: 7)
        events[1].properties["odd"] = ["line\nbreak\t\u{1}": [.null, true, .number(.nan), .number(-1e-300)]]
        events[2].userID = "ü\\\"🙂"
        for count in 0...events.count {
            for sentAt in [Date(timeIntervalSince1970: -1e12), Date(timeIntervalSince1970: 0.0005), Date()] {
                let batch = EventBatch(events: Array(events.prefix(count)), sentAt: sentAt)
                #expect(batch.encodedSize(as: encoding) == batch.encoded(as: encoding).count)
            }
        }
    }

    @Test("both stores cut a batch at exactly the cap, measured as the body is written", arguments: ["file", "memory"])
    func storesCutAtTheBoundary(kind: String) throws {
        let directory = TemporaryDirectory()
        let store: any EventStore =
            kind == "file"
            ? try FileEventStore(
                directory: directory.url,
                configuration: FileEventStoreConfiguration(durability: .synced)
            )
            : MemoryEventStore()
        let events = largeEvents(40, seed: 11)
        for event in events { try store.append(event) }
        let envelope = bodySize([], .actuate)
        for count in [1, 2, 5, 17, 39] {
            let cap = bodySize(events[..<count], .actuate)
            // maxBytes counts each event with its separator: a body of `cap` bytes has cap − envelope + 1.
            #expect(try store.fetch(count: 100, maxBytes: cap - envelope + 1).count == count)
            #expect(try store.fetch(count: 100, maxBytes: cap - envelope).count == max(1, count - 1))
        }
    }

    @Test(
        "every request body stays within maxBatchBytes and is as full as it can be",
        arguments: EventBatchEncoding.allCases
    )
    func uploadedBodiesRespectTheCap(encoding: EventBatchEncoding) async throws {
        let events = largeEvents(500, seed: 3)
        let store = try makeStore(events)
        let cap = 475_000
        try await TestCollector.with { collector in
            let transport = try HTTPEventTransport(endpoint: collector.batchURL, apiKey: "key", encoding: encoding)
            let uploader = EventUploader(
                store: store,
                transport: transport,
                scheduler: TestScheduler(),
                configuration: EventUploader.Configuration(flushPolicies: [.manual], maxBatchBytes: cap)
            )
            await uploader.flushNow()
            let stats = try await collector.stats(includeIDs: false)
            #expect(stats.unique == 500)
            #expect(stats.log.count >= 3)
            var start = 0
            for entry in stats.log {
                let batch = events[start..<(start + entry.events)]
                #expect(entry.bytes == bodySize(batch, encoding))
                #expect(try #require(entry.bytes) <= cap)
                if batch.endIndex < events.endIndex {
                    #expect(bodySize(events[start...batch.endIndex], encoding) > cap, "the batch could hold one more")
                }
                start = batch.endIndex
            }
            #expect(start == events.count)
        }
    }
}
