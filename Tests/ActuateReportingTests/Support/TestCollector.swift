import ActuateReporting
import ActuateTestSupport
import Foundation

/// Runs `Tests/Support/collector.py`, the loopback collector, in a child process for one test.
///
/// ```swift
/// try await TestCollector.with(script: ["500", "503 Retry-After: 2"]) { collector in
///     let transport = try HTTPEventTransport(endpoint: collector.batchURL)
///     …
///     let stats = try await collector.stats()
/// }
/// ```
final class TestCollector: Sendable {
    /// What the collector reports at `GET /control/stats`.
    struct Stats: Decodable, Sendable {
        struct Entry: Decodable, Sendable {
            var action: String
            var events: Int
            var bytes: Int?
            var recorded: Bool
            var status: Int?
            var at: Double?
            /// The number of the connection the request came on, counted from 1 in order of first batch request.
            var connection: Int?
        }

        var requests: Int
        var unique: Int
        var duplicates: Int
        /// Duplicates whose content differs from the first copy recorded.
        var conflicts: Int
        var malformed: Int
        var bodiless: Int
        /// The connections that carried at least one batch request, bodiless ones included.
        var connections: Int
        var log: [Entry]
        var lastAuthorization: String?
        var lastContentType: String?
        var lastSentAt: String?
        var remainingScript: Int
        var ids: [String]?
    }

    /// The collector's port on 127.0.0.1.
    var port: Int { server.port }
    private let server: LoopbackServerProcess

    /// The batch endpoint, `http://127.0.0.1:<port>/v1/batch`.
    var batchURL: URL { server.url("/v1/batch") }

    private init(server: LoopbackServerProcess) {
        self.server = server
    }

    /// Starts a collector, runs `body`, and stops the collector whether `body` succeeds or throws.
    static func with<T: Sendable>(
        script: [String] = [],
        slowSeconds: Double = 5,
        maxSeconds: Double = 300,
        _ body: (TestCollector) async throws -> T
    ) async throws -> T {
        let collector = try await start(script: script, slowSeconds: slowSeconds, maxSeconds: maxSeconds)
        return try await LoopbackServerProcess.using(collector, shutdown: { await $0.shutdown() }, body)
    }

    /// Starts a collector with `python3` from PATH and waits for it to print its port.
    static func start(
        script: [String] = [],
        slowSeconds: Double = 5,
        maxSeconds: Double = 300
    ) async throws
        -> TestCollector
    {
        let arguments = [
            "--script", try LoopbackServerProcess.jsonArgument(script), "--slow-seconds", String(slowSeconds),
            "--max-seconds", String(maxSeconds),
        ]
        return TestCollector(server: try await LoopbackServerProcess.start("collector.py", arguments: arguments))
    }

    /// The collector's counters and log.
    func stats(includeIDs: Bool = true) async throws -> Stats {
        try JSONDecoder().decode(Stats.self, from: try await server.get("/control/stats?ids=\(includeIDs ? 1 : 0)"))
    }

    /// The events (or Segment messages) the collector recorded, as it received them, oldest first.
    func events() async throws -> [[String: JSONValue]] {
        try JSONDecoder().decode([[String: JSONValue]].self, from: try await server.get("/control/events"))
    }

    /// Replaces the rest of the collector's response script.
    func setScript(_ script: [String]) async throws {
        try await server.post("/control/script", body: try JSONEncoder().encode(script))
    }

    /// Asks the collector to stop and waits for its process to exit; closing its input stops it too.
    func shutdown() async {
        await server.shutdown()
    }

    /// Closes the collector's standard input, as the death of the test process would.
    func closeInput() {
        server.closeInput()
    }

    /// Waits for the collector's process to exit, however it was asked to.
    func waitForExit() async {
        await server.waitForExit()
    }
}
