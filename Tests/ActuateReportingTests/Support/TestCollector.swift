import ActuateReporting
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs `Tests/Support/collector.py`, the loopback collector, in a child process for one test.
///
/// ```swift
/// try await TestCollector.with(script: ["500", "503 Retry-After: 2"]) { collector in
///     let transport = try HTTPEventTransport(endpoint: collector.batchURL)
///     …
///     let stats = try await collector.stats()
/// }
/// ```
// @unchecked: every stored property is a `let`; Process and Pipe are used only through thread-safe calls
// (isRunning, terminate, closing a file handle), and some SDKs do not mark them Sendable.
final class TestCollector: @unchecked Sendable {
    /// What the collector reports at `GET /control/stats`.
    struct Stats: Decodable, Sendable {
        struct Entry: Decodable, Sendable {
            var action: String
            var events: Int
            var bytes: Int?
            var recorded: Bool
            var status: Int?
            var at: Double?
        }

        var requests: Int
        var unique: Int
        var duplicates: Int
        var malformed: Int
        var bodiless: Int
        var log: [Entry]
        var lastAuthorization: String?
        var lastContentType: String?
        var lastSentAt: String?
        var remainingScript: Int
        var ids: [String]?
    }

    enum StartError: Error, CustomStringConvertible {
        case pythonMissing
        case scriptMissing(String)
        case noPort(output: String)

        var description: String {
            switch self {
            case .pythonMissing:
                return
                    "python3 was not found on PATH; the upload tests need Python 3 to run Tests/Support/collector.py."
            case .scriptMissing(let path):
                return "The collector script is missing at \(path)."
            case .noPort(let output):
                return "The collector did not print its port; it printed: \(output)"
            }
        }
    }

    /// The collector's port on 127.0.0.1.
    let port: Int
    private let process: Process
    private let stdinPipe: Pipe
    private let exited: ExitSignal

    /// The batch endpoint, `http://127.0.0.1:<port>/v1/batch`.
    var batchURL: URL { url("/v1/batch") }

    private init(port: Int, process: Process, stdinPipe: Pipe, exited: ExitSignal) {
        self.port = port
        self.process = process
        self.stdinPipe = stdinPipe
        self.exited = exited
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Starts a collector, runs `body`, and stops the collector whether `body` succeeds or throws.
    static func with<T: Sendable>(
        script: [String] = [],
        slowSeconds: Double = 5,
        maxSeconds: Double = 300,
        _ body: (TestCollector) async throws -> T
    ) async throws -> T {
        let collector = try await start(script: script, slowSeconds: slowSeconds, maxSeconds: maxSeconds)
        do {
            let result = try await body(collector)
            await collector.shutdown()
            return result
        } catch {
            await collector.shutdown()
            throw error
        }
    }

    /// Starts a collector with `python3` from PATH and waits for it to print its port.
    static func start(
        script: [String] = [],
        slowSeconds: Double = 5,
        maxSeconds: Double = 300
    ) async throws
        -> TestCollector
    {
        guard let python = findOnPath("python3") else { throw StartError.pythonMissing }
        let scriptURL = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Support
            .deletingLastPathComponent()  // ActuateReportingTests
            .deletingLastPathComponent()  // Tests
            .appendingPathComponent("Support/collector.py")
        guard FileManager.default.fileExists(atPath: scriptURL.path) else {
            throw StartError.scriptMissing(scriptURL.path)
        }
        let scriptJSON = String(decoding: try JSONEncoder().encode(script), as: UTF8.self)
        let process = Process()
        process.executableURL = python
        process.arguments = [
            scriptURL.path, "--script", scriptJSON, "--slow-seconds", String(slowSeconds),
            "--max-seconds", String(maxSeconds),
        ]
        let stdinPipe = Pipe()
        let stdoutPipe = Pipe()
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        let exited = ExitSignal()
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let line = await readFirstLine(stdoutPipe.fileHandleForReading)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            if process.isRunning { process.terminate() }
            throw StartError.noPort(output: line)
        }
        return TestCollector(port: port, process: process, stdinPipe: stdinPipe, exited: exited)
    }

    /// The collector's counters and log.
    func stats(includeIDs: Bool = true) async throws -> Stats {
        let (data, _) = try await Self.session.data(from: url("/control/stats?ids=\(includeIDs ? 1 : 0)"))
        return try JSONDecoder().decode(Stats.self, from: data)
    }

    /// The events (or Segment messages) the collector recorded, as it received them, oldest first.
    func events() async throws -> [[String: JSONValue]] {
        let (data, _) = try await Self.session.data(from: url("/control/events"))
        return try JSONDecoder().decode([[String: JSONValue]].self, from: data)
    }

    /// Replaces the rest of the collector's response script.
    func setScript(_ script: [String]) async throws {
        var request = URLRequest(url: url("/control/script"))
        request.httpMethod = "POST"
        request.httpBody = try JSONEncoder().encode(script)
        _ = try await Self.session.data(for: request)
    }

    /// Asks the collector to stop and waits for its process to exit; closing its input stops it too.
    func shutdown() async {
        var request = URLRequest(url: url("/control/shutdown"))
        request.httpMethod = "POST"
        _ = try? await Self.session.data(for: request)
        try? stdinPipe.fileHandleForWriting.close()
        await exited.wait()
    }

    /// Closes the collector's standard input, as the death of the test process would.
    func closeInput() {
        try? stdinPipe.fileHandleForWriting.close()
    }

    /// Waits for the collector's process to exit, however it was asked to.
    func waitForExit() async {
        await exited.wait()
    }

    private func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        return URLSession(configuration: configuration)
    }()

    private static func findOnPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Reads until the first newline or end of file, off the cooperative thread pool.
    private static func readFirstLine(_ handle: FileHandle) async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var bytes = Data()
                while !bytes.contains(UInt8(ascii: "\n")) {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    bytes.append(chunk)
                }
                let text = String(decoding: bytes, as: UTF8.self)
                continuation.resume(returning: String(text.split(separator: "\n").first ?? ""))
            }
        }
    }
}

/// A one-shot signal for the collector's exit, awaited without blocking a thread.
final class ExitSignal: Sendable {
    private struct State {
        var done = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func signal() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.done = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                if !state.done { state.waiters.append(continuation) }
                return state.done
            }
            if done { continuation.resume() }
        }
    }
}
