import Actuate
import ActuateTesting
import Foundation
import Testing

@testable import ActuateReporting

/// Measures upload throughput to the loopback collector.
///
/// It uploads 5,000 events by default; set `ACTUATE_UPLOAD_EVENTS` for the benchmark figure:
///
///     ACTUATE_UPLOAD_EVENTS=100000 swift test -c release --filter EventUploaderThroughput
@Suite("EventUploader throughput", .serialized)  // serialized so the two measurements do not share the CPU
struct EventUploaderThroughputTests {
    @Test(
        "a large store goes out in full 500-event requests with no loss and no duplicates",
        arguments: ["MemoryEventStore", "QueueEventStore"]
    )
    func throughput(storeKind: String) async throws {
        let count = Int(ProcessInfo.processInfo.environment["ACTUATE_UPLOAD_EVENTS"] ?? "") ?? 5_000
        let store: any EventStore =
            storeKind == "QueueEventStore" ? QueueEventStore() : MemoryEventStore(maxEvents: count)
        for event in makeEvents(count) { try store.append(event) }

        try await TestCollector.with { collector in
            let transport = try HTTPEventTransport(endpoint: collector.batchURL, apiKey: "bench", timeout: .seconds(60))
            let uploader = EventUploader(
                store: store,
                transport: transport,
                scheduler: TestScheduler(),
                configuration: EventUploader.Configuration(flushPolicies: [.manual])
            )

            let elapsed = await ContinuousClock().measure { await uploader.flushNow() }

            let stats = try await collector.stats(includeIDs: false)
            let seconds = elapsed.seconds
            let rate = Double(count) / max(seconds, 1e-9)
            print(
                "upload throughput (\(storeKind)): \(count) events in \(stats.requests) requests, "
                    + "\(String(format: "%.3f", seconds)) s, \(Int(rate)) events/s"
            )
            #expect(stats.unique == count)
            #expect(stats.duplicates == 0)
            #expect(stats.requests == (count + 499) / 500)
            #expect(try store.count() == 0)
        }
    }
}
