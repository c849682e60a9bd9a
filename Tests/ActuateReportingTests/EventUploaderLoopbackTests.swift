import ActuateTesting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateReporting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("EventUploader over loopback HTTP")
struct EventUploaderLoopbackTests {
    /// The collector's answers, in order; every request after these gets 200.
    ///
    /// With 60 events in batches of 10, the first batch (A) meets every failure: 500 (backoff), 503 with
    /// Retry-After (pause), 429 without it (pause on backoff), then 413 splits it into A1 and A2 (after a backoff). A1 is refused
    /// three times with 400, with a dropped connection between that does not count against it, and is
    /// dead-lettered. A2 meets a response slower than the client's timeout, which the collector records, so its
    /// resend is a counted duplicate. The five remaining batches are accepted first time.
    static let script = ["500", "503 Retry-After: 2", "429", "413", "400", "drop", "400", "400", "slow"]

    @Test(
        "every event arrives exactly once except the refused batch, which is dead-lettered",
        arguments: ["file", "memory"]
    )
    func scriptedFailures(storeKind: String) async throws {
        let events = makeEvents(60)
        let directory = TemporaryDirectory()
        let store: any EventStore
        if storeKind == "file" {
            let fileStore = try FileEventStore(directory: directory.url)
            for event in events { try fileStore.append(event) }
            store = fileStore
        } else {
            store = try makeStore(events)
        }
        let scheduler = TestScheduler()

        try await TestCollector.with(script: Self.script, slowSeconds: 15) { collector in
            let transport = try HTTPEventTransport(
                endpoint: collector.batchURL,
                apiKey: "test-key",
                timeout: .seconds(5)
            )
            let uploader = EventUploader(
                store: store,
                transport: transport,
                scheduler: scheduler,
                configuration: EventUploader.Configuration(flushPolicies: [.manual], maxBatchCount: 10, random: { 0.5 })
            )

            let results = uploader.results()
            await uploader.flushNow()
            var delays: [Duration] = []
            var pauses = 0
            while let next = uploader.status.nextAttemptUptime, delays.count < 30 {
                if uploader.status.pausedUntil != nil { pauses += 1 }
                delays.append(next - scheduler.uptime())
                scheduler.advance(by: next - scheduler.uptime())
                await uploader.waitUntilIdle()
            }

            let stats = try await collector.stats()
            let refused = Array(events[0..<5])
            let delivered = Array(events[5...])
            #expect(Set(stats.ids ?? []) == Set(delivered.map(\.id.uuidString)))
            #expect(stats.unique == 55)
            #expect(stats.duplicates == 5)
            #expect(stats.requests == 15)
            #expect(
                stats.log.map(\.status) == [500, 503, 429, 413, 400, nil, 400, 400, 200]
                    + Array(repeating: 200, count: 6)
            )
            #expect(stats.log.filter(\.recorded).map(\.events) == [5, 5, 10, 10, 10, 10, 10])

            #expect(try store.count() == 0)
            let letters = try store.deadLetters()
            #expect(letters.map(\.event) == refused)
            #expect(letters.allSatisfy { $0.reason == "HTTP 400 after 3 tries" })

            // 500 → 0.5 s; 503 → Retry-After 2 s; 429 → backoff 2 s (third failure); 413 → split, backoff 4 s
            // (fourth failure); 400 → 0.5 s; the drop closes a kept-alive connection without an answer, and URLSession
            // resends that request whole on a fresh one (the collector counts both, the uploader one), which the next
            // 400 answers → 1 s; slow (timed out) → 8 s (fifth failure).
            #expect(
                delays == [
                    .milliseconds(500), .seconds(2), .seconds(2), .seconds(4), .milliseconds(500), .seconds(1),
                    .seconds(8),
                ]
            )
            #expect(pauses == 2)
            let status = uploader.status
            #expect(status.requestsSent == 14)
            #expect(status.eventsAcknowledged == 55)
            #expect(status.eventsDeadLettered == 5)
            #expect(status.batchesSplit == 1)
            #expect(status.retriesScheduled == 7)
            #expect(status.nextAttemptUptime == nil)

            var iterator = results.makeAsyncIterator()
            var failures: [TransportFailure.Kind] = []
            for _ in 0..<14 {
                let result = try #require(await iterator.next())
                if let failure = result.failure { failures.append(failure.kind) }
            }
            #expect(failures == [.timedOut])
            #expect(stats.bodiless == 0)
        }

        if let fileStore = store as? FileEventStore {
            // The outcome is durable: a reopened store is empty and its dead-letter file holds only the 400 batch.
            try fileStore.close()
            let reopened = try FileEventStore(directory: directory.url)
            #expect(try reopened.count() == 0)
            #expect(try reopened.deadLetters().map(\.event) == Array(events[0..<5]))
        }
    }

    @Test("the collector stops by itself when its input closes and after its lifetime")
    func collectorStopsByItself() async throws {
        let orphaned = try await TestCollector.start()
        orphaned.closeInput()
        await orphaned.waitForExit()

        let expiring = try await TestCollector.start(maxSeconds: 0.5)
        await expiring.waitForExit()
        await #expect(throws: (any Error).self) { try await expiring.stats() }
    }

    @Test("the collector answers malformed batches with 400 without using its script")
    func collectorRejectsMalformedBatches() async throws {
        try await TestCollector.with(script: ["500"]) { collector in
            var request = URLRequest(url: collector.batchURL)
            request.httpMethod = "POST"
            request.httpBody = Data(#"{"batch": [{"noid": 1}]}"#.utf8)
            let (_, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 400)
            let stats = try await collector.stats()
            #expect(stats.malformed == 1)
            #expect(stats.remainingScript == 1)
            #expect(stats.unique == 0)
        }
    }
}
