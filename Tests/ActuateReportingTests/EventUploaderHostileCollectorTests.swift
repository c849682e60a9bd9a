import ActuateTesting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateReporting

// Two collectors that misbehave for every request, through the real HTTPEventTransport to the loopback collector
// (Tests/Support/collector.py), on virtual time. Before, a collector answering 413 to everything got 127 requests
// for 64 events within a fraction of a second and all 64 were dead-lettered, and one answering 308 got three
// requests and all its events dead-lettered.

@Suite("EventUploader against a hostile collector over loopback HTTP")
struct EventUploaderHostileCollectorTests {
    private static func uploader(
        _ store: any EventStore,
        _ collector: TestCollector,
        _ scheduler: TestScheduler,
        maxBatchCount: Int
    ) throws -> EventUploader {
        let transport = try HTTPEventTransport(endpoint: collector.batchURL, apiKey: "test-key", timeout: .seconds(5))
        return EventUploader(
            store: store,
            transport: transport,
            scheduler: scheduler,
            configuration: EventUploader.Configuration(
                flushPolicies: [.manual],
                maxBatchCount: maxBatchCount,
                random: { 0.5 }
            )
        )
    }

    @Test("a collector answering 413 to everything gets one request per growing backoff, not a storm")
    func tooLargeStorm() async throws {
        let events = makeEvents(64)
        let store = try makeStore(events)
        let scheduler = TestScheduler()
        try await TestCollector.with(script: Array(repeating: "413", count: 300)) { collector in
            let uploader = try Self.uploader(store, collector, scheduler, maxBatchCount: 64)
            await uploader.flushNow()
            #expect(try await collector.stats().requests == 1)
            #expect(uploader.status.nextAttemptUptime == scheduler.uptime() + .milliseconds(500))

            // However often a flush is asked for, nothing is sent before the backoff has passed.
            scheduler.advance(by: .milliseconds(499))
            await uploader.flushNow()
            await uploader.flushNow()
            await uploader.waitUntilIdle()
            #expect(try await collector.stats().requests == 1)
            scheduler.advance(by: .milliseconds(1))
            await uploader.waitUntilIdle()

            // Each split waits twice as long as the one before.
            var delays: [Duration] = []
            var requests: [Int] = []
            while let next = uploader.status.nextAttemptUptime, delays.count < 8 {
                requests.append(uploader.status.requestsSent)
                delays.append(next - scheduler.uptime())
                scheduler.advance(by: next - scheduler.uptime())
                await uploader.waitUntilIdle()
            }
            #expect(
                delays == [
                    .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(32), .seconds(64),
                    .seconds(128),
                ]
            )
            // 64 → 32 → 16 → 8 → 4 → 2, then two single events given up on at once, then the next pair.
            #expect(requests == [2, 3, 4, 5, 6, 9, 12, 13])
            let stats = try await collector.stats()
            #expect(stats.requests == uploader.status.requestsSent)
            #expect(stats.log.allSatisfy { $0.status == 413 })
            #expect(stats.unique == 0)
            // After more than four virtual minutes, only the events proven too large alone were given up on.
            #expect(uploader.status.eventsDeadLettered == 6)
            #expect(try store.count() == 58)
        }
    }

    @Test("a redirect pauses delivery as a configuration error: reported, retried with backoff, nothing dead-lettered")
    func redirect() async throws {
        let events = makeEvents(10)
        let directory = TemporaryDirectory()
        let store = try FileEventStore(directory: directory.url)
        for event in events { try store.append(event) }
        let scheduler = TestScheduler()
        let redirect = "308 Location: http://127.0.0.1:9/elsewhere"
        try await TestCollector.with(script: [redirect, redirect, redirect, redirect]) { collector in
            let uploader = try Self.uploader(store, collector, scheduler, maxBatchCount: 10)
            let results = uploader.results()
            await uploader.flushNow()
            var delays: [Duration] = []
            var paused = 0
            while let next = uploader.status.nextAttemptUptime, delays.count < 10 {
                if uploader.status.pausedUntil != nil { paused += 1 }
                let error = try #require(uploader.status.configurationError)
                #expect(error.hasPrefix("HTTP 308: the collector redirects"))
                #expect(uploader.status.isPausedForConfigurationError)
                #expect(uploader.status.lastError == error)
                #expect(uploader.status.eventsPending == 10)
                #expect(uploader.status.eventsDeadLettered == 0)
                #expect(try store.count() == 10)
                delays.append(next - scheduler.uptime())
                scheduler.advance(by: next - scheduler.uptime())
                await uploader.waitUntilIdle()
            }
            #expect(delays == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4)])
            #expect(paused == 4)

            // Once the collector answers 200, every event arrives once and the error is cleared.
            let stats = try await collector.stats()
            #expect(stats.log.map(\.status) == [308, 308, 308, 308, 200])
            #expect(stats.unique == 10)
            #expect(uploader.status.configurationError == nil)
            #expect(!uploader.status.isPausedForConfigurationError)
            #expect(uploader.status.lastError == nil)
            #expect(uploader.status.eventsPending == 0)
            #expect(uploader.status.eventsAcknowledged == 10)
            #expect(try store.count() == 0)
            #expect(try store.deadLetters().isEmpty)

            var iterator = results.makeAsyncIterator()
            for _ in 0..<4 {
                let result = try #require(await iterator.next())
                #expect(result.statusCode == 308)
                guard case .pause(_, let reason) = result.decision else {
                    Issue.record("a redirect gave \(result.decision)")
                    continue
                }
                #expect(reason.contains("configuration error"))
            }
        }
        try store.close()
    }
}
