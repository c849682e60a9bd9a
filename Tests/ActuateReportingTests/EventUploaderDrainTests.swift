import ActuateTesting
import Foundation
import Testing

@testable import ActuateReporting

/// Drains a store through the loopback collector while it drops three connections, each after ten or more requests
/// on it: the uploader reuses its connections, and a dropped one is retried without a stall.
///
/// It uploads 2,000 events by default, always in 40 batches; set `ACTUATE_DRAIN_EVENTS` for the figure in the
/// README (the drain time of 20,000 events):
///
///     ACTUATE_DRAIN_EVENTS=20000 swift test -c release --filter EventUploaderDrain
///
/// The drain time printed is the wall-clock time of the requests plus the backoff delays the uploader scheduled,
/// which the test skips on its injected clock instead of waiting them out.
@Suite("EventUploader drain through dropped connections", .serialized)
struct EventUploaderDrainTests {
    @Test(
        "three dropped reused connections are resent whole at once, with no bodiless request, loss, duplicate or stall"
    )
    func drainThroughDrops() async throws {
        let count = Int(ProcessInfo.processInfo.environment["ACTUATE_DRAIN_EVENTS"] ?? "") ?? 2_000
        let batchCount = max(1, count / 40)
        let store = try makeStore(makeEvents(count))
        let scheduler = TestScheduler()
        let ok = Array(repeating: "200", count: 10)
        let script = Array(ok.prefix(5)) + ["drop"] + ok + ["drop"] + ok + ["drop"]

        try await TestCollector.with(script: script) { collector in
            // The default 30 s timeout: a drop that stalled would end only there, as a timedOut failure.
            let transport = try HTTPEventTransport(endpoint: collector.batchURL, apiKey: "drain")
            let uploader = EventUploader(
                store: store,
                transport: transport,
                scheduler: scheduler,
                configuration: EventUploader.Configuration(
                    flushPolicies: [.manual],
                    maxBatchCount: batchCount,
                    random: { 0.5 }
                )
            )
            let results = uploader.results()
            var delays: [Duration] = []
            let clock = ContinuousClock()
            let started = clock.now
            await uploader.flushNow()
            while let next = uploader.status.nextAttemptUptime, delays.count < 10 {
                delays.append(next - scheduler.uptime())
                scheduler.advance(by: next - scheduler.uptime())
                await uploader.waitUntilIdle()
            }
            let wall = clock.now - started
            let backoff = delays.reduce(Duration.zero, +)
            print(
                "drain of \(count) events with 3 dropped connections: "
                    + "\(String(format: "%.2f", (wall + backoff).seconds)) s "
                    + "(\(String(format: "%.2f", wall.seconds)) s of requests, \(backoff.seconds) s of backoff)"
            )

            let stats = try await collector.stats(includeIDs: false)
            #expect(stats.unique == count)
            #expect(stats.duplicates == 0)
            let drops = stats.log.filter { $0.action == "drop" }
            #expect(drops.count == 3)
            // Requests reuse their connection. Each drop closes one; libcurl resends the request on a second, whole
            // (the client gives it the body again), so no request arrives without its body and nothing fails.
            #expect(stats.requests == 40 + drops.count)
            #expect(stats.connections <= 1 + drops.count)
            #expect(drops.allSatisfy { drop in stats.log.filter { $0.connection == drop.connection }.count > 1 })
            #expect(stats.bodiless == 0)
            #expect(stats.malformed == 0)
            #expect(stats.log.allSatisfy { $0.bytes ?? 0 > 0 })
            #expect(try store.count() == 0)
            // No drop surfaced as a failure, so none waited for a backoff, let alone the timeout.
            #expect(delays.isEmpty)
            var iterator = results.makeAsyncIterator()
            var failures: [TransportFailure.Kind] = []
            for _ in 0..<40 {
                let result = try #require(await iterator.next())
                if let failure = result.failure { failures.append(failure.kind) }
            }
            #expect(failures.isEmpty)
        }
    }
}
