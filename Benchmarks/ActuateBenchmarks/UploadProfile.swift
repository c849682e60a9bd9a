import Actuate
import ActuateReporting
import Foundation

/// The `upload-encode` profile case: the uploader's work for one event without the network.
///
/// ```sh
/// ACTUATE_BENCH_PROFILE=upload-encode swift run -c release actuate-bench
/// ```
///
/// Each run appends that many benchmark events to a new `FileEventStore`, then drains it through
/// ``EventUploader`` into a transport that builds each request body, as ``HTTPEventTransport`` does, and
/// acknowledges it: the fetch, the JSON and the removal, as `upload.throughput` measures them, plus the append.
enum UploadProfile {
    /// Whether `name` is one of these cases.
    static func handles(_ name: String) -> Bool { name == "upload-encode" }

    static func run(_ name: String, times: Int) throws {
        let directory = JournalBenchmarkFiles.temporaryDirectory("upload-profile")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileEventStore(directory: directory)
        for event in JournalBenchmarkFiles.events(times) { try store.append(event) }
        try store.flush()
        let uploader = EventUploader(
            store: store,
            transport: EncodingTransport(),
            scheduler: SystemScheduler.shared,
            configuration: EventUploader.Configuration(flushPolicies: [.manual])
        )
        blockingAwait { await uploader.flushNow() }
        guard try store.count() == 0 else { throw BenchmarkFailure("the uploader left \(try store.count()) events") }
        try store.close()
    }

    /// Builds the request body of every batch and acknowledges it.
    private struct EncodingTransport: EventTransport {
        func send(_ batch: EventBatch) async -> TransportResponse {
            let body = batch.encoded(as: .actuate)
            return .http(HTTPResponse(statusCode: body.isEmpty ? 500 : 200))
        }
    }
}
