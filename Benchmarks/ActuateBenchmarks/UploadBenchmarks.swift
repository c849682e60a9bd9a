import Actuate
import ActuateReporting
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Benchmark {
    /// Drains a FileEventStore through EventUploader to the loopback collector, against bare URLSession POSTs of
    /// the same number of batch bodies to the same collector.
    static let uploadThroughput = Benchmark(
        name: "upload.throughput",
        summary: "events per second from a FileEventStore to the loopback collector, 500-event requests"
    ) { context in
        let count = context.size(100_000, quick: 5_000)
        let collector = try BenchmarkCollector.start()
        defer { collector.stop() }
        var requestsPerRound: [Int] = []
        let uploaderRound: () throws -> Double = {
            let directory = JournalBenchmarkFiles.temporaryDirectory("upload")
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try FileEventStore(directory: directory)
            for event in JournalBenchmarkFiles.events(count) { try store.append(event) }
            try store.flush()
            let transport = try HTTPEventTransport(endpoint: collector.batchURL, apiKey: "bench", timeout: .seconds(60))
            let uploader = EventUploader(
                store: store,
                transport: transport,
                scheduler: SystemScheduler.shared,
                configuration: EventUploader.Configuration(flushPolicies: [.manual])
            )
            let before = try collector.stats()
            let seconds = context.seconds { blockingAwait { await uploader.flushNow() } }
            let after = try collector.stats()
            guard try store.count() == 0, after.unique - before.unique == count else {
                throw BenchmarkFailure(
                    "the uploader left \(try store.count()) events; \(after.unique - before.unique) arrived"
                )
            }
            requestsPerRound.append(after.requests - before.requests)
            try store.close()
            return Double(count) / seconds
        }
        let bareRound: () throws -> Double = {
            // New events every round, encoded before the clock starts, so the collector records each as new, as
            // it does the uploader's, instead of comparing resent copies with what it already holds.
            let bodies = try BenchmarkCollector.batchBodies(count: count)
            let session = URLSession(configuration: .ephemeral)
            let before = try collector.stats()
            let seconds = try context.seconds {
                for body in bodies {
                    var request = URLRequest(url: collector.batchURL)
                    request.httpMethod = "POST"
                    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                    request.httpBody = body
                    let prepared = request
                    let status = try blockingAwait { () async throws -> Int in
                        let (_, response) = try await session.data(for: prepared)
                        return (response as? HTTPURLResponse)?.statusCode ?? 0
                    }
                    guard status == 200 else { throw BenchmarkFailure("the collector answered \(status)") }
                }
            }
            session.invalidateAndCancel()
            let arrived = try collector.stats().unique - before.unique
            guard arrived == count else { throw BenchmarkFailure("\(arrived) of the \(count) posted events arrived") }
            return Double(count) / seconds
        }
        let rounds = try context.interleavedRounds([bareRound, uploaderRound])
        let requests = requestsPerRound.last ?? 0
        return [
            Figure(
                name: "upload.throughput, \(count) events",
                subject: Measurement(label: "EventUploader from FileEventStore", unit: "events/s", samples: rounds[1]),
                baseline: Measurement(
                    label: "URLSession POSTs of the same batches",
                    unit: "events/s",
                    samples: rounds[0]
                ),
                higherIsBetter: true,
                note:
                    "\(requests) requests per round for \(count) events (500 events or 475 KB each); the baseline posts "
                    + "\((count + 499) / 500) 500-event bodies of new events each round, encoded before timing, "
                    + "one after another"
            ).target(.median, 50_000).target(.ratio, 0.5)
        ]
    }
}

/// The loopback collector (`Tests/Support/collector.py`), started for one benchmark.
struct BenchmarkCollector {
    struct Stats: Decodable {
        var requests: Int
        var unique: Int
    }

    /// The collector process, or nil for one started outside the benchmark.
    let process: Process?
    let input: Pipe?
    let port: Int

    var batchURL: URL { URL(string: "http://127.0.0.1:\(port)/v1/batch")! }

    /// Starts the collector, or uses the one listening on `ACTUATE_BENCH_COLLECTOR_PORT`: under valgrind, which
    /// keeps a process from starting another, a collector started by hand lets callgrind measure the uploader.
    static func start() throws -> BenchmarkCollector {
        if let text = ProcessInfo.processInfo.environment["ACTUATE_BENCH_COLLECTOR_PORT"] {
            guard let port = Int(text), (1...65_535).contains(port) else {
                throw BenchmarkFailure("ACTUATE_BENCH_COLLECTOR_PORT is not a port number: \(text)")
            }
            return BenchmarkCollector(process: nil, input: nil, port: port)
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Tests/Support/collector.py")
        guard FileManager.default.fileExists(atPath: script.path) else {
            throw BenchmarkFailure("the collector script is not at \(script.path)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "--max-seconds", "1200"]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 10 {
            line.append(first)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)) else {
            process.terminate()
            throw BenchmarkFailure("the collector did not print its port")
        }
        return BenchmarkCollector(process: process, input: input, port: port)
    }

    func stats() throws -> Stats {
        let url = URL(string: "http://127.0.0.1:\(port)/control/stats?ids=0")!
        let data = try blockingAwait { try await URLSession.shared.data(from: url).0 }
        return try JSONDecoder().decode(Stats.self, from: data)
    }

    func stop() {
        try? input?.fileHandleForWriting.close()
        process?.waitUntilExit()
    }

    /// `count` events as 500-event batch bodies in the collector's JSON batch format.
    static func batchBodies(count: Int) throws -> [Data] {
        struct Body: Encodable {
            var batch: [ReportEvent]
            var sentAt: Date
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let events = JournalBenchmarkFiles.events(count)
        return try stride(from: 0, to: count, by: 500).map { start in
            try encoder.encode(Body(batch: Array(events[start..<min(start + 500, count)]), sentAt: Date()))
        }
    }
}

/// Runs `body` in a task and blocks this thread until it returns.
func blockingAwait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let result = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
}

/// ``blockingAwait(_:)`` for a body that cannot throw.
func blockingAwait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    // The throwing form rethrows only what the body throws, and this body throws nothing.
    try! blockingAwait { () async throws -> T in await body() }
}
