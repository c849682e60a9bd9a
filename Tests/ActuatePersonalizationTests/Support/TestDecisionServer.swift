import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs `Tests/Support/decision_server.py`, the loopback decision server, in a child process for one test.
///
/// ```swift
/// try await TestDecisionServer.with(result: json, script: ["ok", "truncated"]) { server in
///     let source = try HTTPDecisionSource(endpoint: server.decideURL, apiKey: "test-key")
///     …
///     let requests = try await server.requests()
/// }
/// ```
// @unchecked: every stored property is a `let`; Process and Pipe are used only through thread-safe calls
// (isRunning, terminate, closing a file handle), and some SDKs do not mark them Sendable.
final class TestDecisionServer: @unchecked Sendable {
    /// One request the server received.
    struct Request: Decodable, Sendable {
        struct Body: Decodable, Sendable {
            var visitorId: String
            var userId: String?
            var sessionCount: Int
            var commands: [JSONCommand]
        }

        /// A command as JSON, compared field by field.
        struct JSONCommand: Decodable, Sendable, Hashable {
            var command: String
            var document: String?
            var event: String?
            var productId: String?
            var articleId: String?
            var field: String?
            var value: String?
        }

        var body: Body?
        var authorization: String?
    }

    enum StartError: Error, CustomStringConvertible {
        case pythonMissing
        case noPort(output: String)

        var description: String {
            switch self {
            case .pythonMissing: "python3 was not found on PATH; the HTTP decision tests need it."
            case .noPort(let output): "The decision server did not print its port; it printed: \(output)"
            }
        }
    }

    let port: Int
    private let process: Process
    private let stdinPipe: Pipe
    private let exited: ProcessExit

    /// `http://127.0.0.1:<port>/v1/decide`.
    var decideURL: URL { url("/v1/decide") }

    private init(port: Int, process: Process, stdinPipe: Pipe, exited: ProcessExit) {
        self.port = port
        self.process = process
        self.stdinPipe = stdinPipe
        self.exited = exited
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Starts a server, runs `body`, and stops the server whether `body` succeeds or throws.
    static func with<T: Sendable>(
        result: String,
        script: [String] = [],
        _ body: (TestDecisionServer) async throws -> T
    ) async throws -> T {
        let server = try await start(result: result, script: script)
        do {
            let value = try await body(server)
            await server.shutdown()
            return value
        } catch {
            await server.shutdown()
            throw error
        }
    }

    static func start(result: String, script: [String]) async throws -> TestDecisionServer {
        guard let python = ChildProcess.findOnPath("python3") else { throw StartError.pythonMissing }
        let scriptJSON = String(decoding: try JSONEncoder().encode(script), as: UTF8.self)
        let process = Process()
        process.executableURL = python
        process.arguments = [
            RepositoryFiles.url("Tests/Support/decision_server.py").path, "--result", result, "--script", scriptJSON,
        ]
        let stdinPipe = Pipe()
        let stdoutPipe = Pipe()
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        let exited = ProcessExit()
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let line = await ChildProcess.readFirstLine(stdoutPipe.fileHandleForReading)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            if process.isRunning { process.terminate() }
            throw StartError.noPort(output: line)
        }
        return TestDecisionServer(port: port, process: process, stdinPipe: stdinPipe, exited: exited)
    }

    /// Every request received so far.
    func requests() async throws -> [Request] {
        struct Payload: Decodable { var requests: [Request] }
        let (data, _) = try await Self.session.data(from: url("/control/requests"))
        return try JSONDecoder().decode(Payload.self, from: data).requests
    }

    /// Replaces the rest of the server's script.
    func setScript(_ script: [String]) async throws {
        var request = URLRequest(url: url("/control/script"))
        request.httpMethod = "POST"
        request.httpBody = try JSONEncoder().encode(script)
        _ = try await Self.session.data(for: request)
    }

    /// Asks the server to stop and waits for its process to exit.
    func shutdown() async {
        var request = URLRequest(url: url("/control/shutdown"))
        request.httpMethod = "POST"
        _ = try? await Self.session.data(for: request)
        try? stdinPipe.fileHandleForWriting.close()
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
}

/// Helpers for the child processes the tests start.
enum ChildProcess {
    static func findOnPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Reads until the first newline or end of file, off the cooperative thread pool.
    static func readFirstLine(_ handle: FileHandle) async -> String {
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

    /// Reads everything until end of file, off the cooperative thread pool.
    static func readToEnd(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: (try? handle.readToEnd()) ?? Data())
            }
        }
    }
}

/// A one-shot signal for a child process's exit, awaited without blocking a thread.
final class ProcessExit: Sendable {
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
