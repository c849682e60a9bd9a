import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs `Tests/Support/content_server.py`, the loopback asset and content-block server, in a child process
/// for one test.
///
/// ```swift
/// try await ContentServer.with { server in
///     try await server.setAsset("/assets/hero.png", body: Data([1, 2, 3]), contentType: "image/png")
///     …
///     #expect(try await server.stats().requests["/assets/hero.png"] == 1)
/// }
/// ```
// @unchecked: every stored property is a `let`; Process and Pipe are used only through thread-safe calls
// (isRunning, terminate, closing a file handle), and some SDKs do not mark them Sendable.
final class ContentServer: @unchecked Sendable {
    /// What the server reports at `GET /control/stats`.
    struct Stats: Decodable, Sendable {
        /// Requests per path (assets and the block endpoint).
        var requests: [String: Int]
        /// The bodies posted to the block endpoint, oldest first.
        var blockRequests: [BlockRequest]
    }

    /// One request to the block endpoint, as the source posted it.
    struct BlockRequest: Decodable, Sendable {
        var placeholderIds: [String]?
        var anonymousId: String?
        var userId: String?
    }

    enum StartError: Error, CustomStringConvertible {
        case pythonMissing
        case scriptMissing(String)
        case noPort(output: String)

        var description: String {
            switch self {
            case .pythonMissing:
                return "python3 was not found on PATH; the content-block tests need Python 3 to run "
                    + "Tests/Support/content_server.py."
            case .scriptMissing(let path):
                return "The content server script is missing at \(path)."
            case .noPort(let output):
                return "The content server did not print its port; it printed: \(output)"
            }
        }
    }

    /// The server's port on 127.0.0.1.
    let port: Int
    private let process: Process
    private let stdinPipe: Pipe
    private let exited: ContentServerExit

    private init(port: Int, process: Process, stdinPipe: Pipe, exited: ContentServerExit) {
        self.port = port
        self.process = process
        self.stdinPipe = stdinPipe
        self.exited = exited
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// The block endpoint, `http://127.0.0.1:<port>/v1/content-blocks`.
    var blocksURL: URL { url("/v1/content-blocks") }

    /// The URL of a path on the server, such as `/assets/hero.png`.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Starts a server, runs `body`, and stops the server whether `body` succeeds or throws.
    static func with<T: Sendable>(_ body: (ContentServer) async throws -> T) async throws -> T {
        let server = try await start()
        do {
            let result = try await body(server)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }

    /// Starts a server with `python3` from PATH and waits for it to print its port.
    static func start(maxSeconds: Double = 300) async throws -> ContentServer {
        guard let python = findOnPath("python3") else { throw StartError.pythonMissing }
        let scriptURL = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Support
            .deletingLastPathComponent()  // ActuatePersonalizationTests
            .deletingLastPathComponent()  // Tests
            .appendingPathComponent("Support/content_server.py")
        guard FileManager.default.fileExists(atPath: scriptURL.path) else {
            throw StartError.scriptMissing(scriptURL.path)
        }
        let process = Process()
        process.executableURL = python
        process.arguments = [scriptURL.path, "--max-seconds", String(maxSeconds)]
        let stdinPipe = Pipe()
        let stdoutPipe = Pipe()
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        let exited = ContentServerExit()
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let line = await readFirstLine(stdoutPipe.fileHandleForReading)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            if process.isRunning { process.terminate() }
            throw StartError.noPort(output: line)
        }
        return ContentServer(port: port, process: process, stdinPipe: stdinPipe, exited: exited)
    }

    /// Serves `body` at `path` with `status` and `contentType`, replacing what was there.
    func setAsset(_ path: String, body: Data, contentType: String = "image/png", status: Int = 200) async throws {
        let config: [String: String] = [
            "path": path, "contentType": contentType, "base64": body.base64EncodedString(), "status": String(status),
        ]
        try await post("/control/asset", try JSONEncoder().encode(config))
    }

    /// Answers block requests with `body`, sent as given, and `status`.
    func setBlocksAnswer(_ body: String, status: Int = 200) async throws {
        try await post("/control/blocks", try JSONEncoder().encode(["body": body, "status": String(status)]))
    }

    /// The server's counters.
    func stats() async throws -> Stats {
        let (data, _) = try await Self.session.data(from: url("/control/stats"))
        return try JSONDecoder().decode(Stats.self, from: data)
    }

    /// Asks the server to stop and waits for its process to exit; closing its input stops it too.
    func shutdown() async {
        try? await post("/control/shutdown", Data())
        try? stdinPipe.fileHandleForWriting.close()
        await exited.wait()
    }

    private func post(_ path: String, _ body: Data) async throws {
        var request = URLRequest(url: url(path))
        request.httpMethod = "POST"
        request.httpBody = body
        let (_, response) = try await Self.session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { throw URLError(.badServerResponse) }
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

/// A one-shot signal for the content server's exit, awaited without blocking a thread.
final class ContentServerExit: Sendable {
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
