import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One of the Python loopback test servers in `Tests/Support` (built on `loopback_server.py`), running in a
/// child process.
///
/// The server prints its port on its first output line and stops when asked at `POST /control/shutdown`, when
/// its standard input is closed, when this process dies, or after its `--max-seconds`.
///
/// ```swift
/// let server = try await LoopbackServerProcess.start("decision_server.py", arguments: ["--result", json])
/// let data = try await server.get("/control/requests")
/// await server.shutdown()
/// ```
// @unchecked: every stored property is a `let`; Process and Pipe are used only through thread-safe calls
// (isRunning, terminate, closing a file handle), and some SDKs do not mark them Sendable.
package final class LoopbackServerProcess: @unchecked Sendable {
    /// Why a server did not start.
    package enum StartError: Error, CustomStringConvertible {
        /// No `python3` on `PATH`.
        case pythonMissing(script: String)
        /// The script is not in `Tests/Support`.
        case scriptMissing(path: String)
        /// The server's first output line was not a port.
        case noPort(script: String, output: String)

        package var description: String {
            switch self {
            case .pythonMissing(let script):
                "python3 was not found on PATH; the tests that use Tests/Support/\(script) need Python 3."
            case .scriptMissing(let path):
                "The loopback server script is missing at \(path)."
            case .noPort(let script, let output):
                "Tests/Support/\(script) did not print its port; it printed: \(output)"
            }
        }
    }

    /// The server's port on 127.0.0.1.
    package let port: Int
    private let process: Process
    private let stdinPipe: Pipe
    private let exited: ExitSignal

    private init(port: Int, process: Process, stdinPipe: Pipe, exited: ExitSignal) {
        self.port = port
        self.process = process
        self.stdinPipe = stdinPipe
        self.exited = exited
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Starts `python3 Tests/Support/<script> <arguments>` with `python3` from `PATH` and waits for it to print
    /// its port.
    ///
    /// - Parameters:
    ///   - script: The script's file name in `Tests/Support`, such as `collector.py`.
    ///   - arguments: Its command-line arguments.
    /// - Returns: The running server.
    /// - Throws: ``StartError`` when Python or the script is missing or the server printed no port, or the
    ///   error of starting the process.
    package static func start(_ script: String, arguments: [String] = []) async throws -> LoopbackServerProcess {
        guard let python = ChildProcessIO.findOnPath("python3") else { throw StartError.pythonMissing(script: script) }
        let scriptURL = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // ActuateTestSupport
            .deletingLastPathComponent()  // Support
            .appendingPathComponent(script)
        guard FileManager.default.fileExists(atPath: scriptURL.path) else {
            throw StartError.scriptMissing(path: scriptURL.path)
        }
        let process = Process()
        process.executableURL = python
        process.arguments = [scriptURL.path] + arguments
        let stdinPipe = Pipe()
        let stdoutPipe = Pipe()
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        let exited = ExitSignal()
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let line = await ChildProcessIO.readFirstLine(stdoutPipe.fileHandleForReading)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            if process.isRunning { process.terminate() }
            throw StartError.noPort(script: script, output: line)
        }
        return LoopbackServerProcess(port: port, process: process, stdinPipe: stdinPipe, exited: exited)
    }

    /// A list of strings as the JSON text a server's `--script` option takes.
    ///
    /// - Parameter list: The entries, in order.
    /// - Returns: The JSON array, such as `["500","drop"]`.
    /// - Throws: An encoding error (none for strings in practice).
    package static func jsonArgument(_ list: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(list), as: UTF8.self)
    }

    /// The URL of a path on the server.
    ///
    /// - Parameter path: The path, with its query if any, such as `/control/stats?ids=0`.
    /// - Returns: `http://127.0.0.1:<port><path>`.
    package func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Gets a path on the server.
    ///
    /// - Parameter path: The path, such as `/control/stats`.
    /// - Returns: The body of the answer, whatever its status.
    /// - Throws: The transport's error.
    package func get(_ path: String) async throws -> Data {
        try await Self.session.data(from: url(path)).0
    }

    /// Posts `body` to a path on the server.
    ///
    /// - Parameters:
    ///   - path: The path, such as `/control/script`.
    ///   - body: The request body.
    /// - Returns: The answer's HTTP status.
    /// - Throws: The transport's error.
    @discardableResult
    package func post(_ path: String, body: Data = Data()) async throws -> Int {
        var request = URLRequest(url: url(path))
        request.httpMethod = "POST"
        request.httpBody = body
        let (_, response) = try await Self.session.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    /// Asks the server to stop and waits for its process to exit; closing its input stops it too.
    package func shutdown() async {
        _ = try? await post("/control/shutdown")
        closeInput()
        await exited.wait()
    }

    /// Closes the server's standard input, as the death of the test process would.
    package func closeInput() {
        try? stdinPipe.fileHandleForWriting.close()
    }

    /// Waits for the server's process to exit, however it was asked to.
    package func waitForExit() async {
        await exited.wait()
    }

    /// Runs `body` with `server`, then shuts the server down, whether `body` succeeds or throws.
    ///
    /// - Parameters:
    ///   - server: A started server or a wrapper around one.
    ///   - shutdown: How to stop it.
    ///   - body: The work to do while it runs.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, after the shutdown.
    package static func using<Server: Sendable, T: Sendable>(
        _ server: Server,
        shutdown: (Server) async -> Void,
        _ body: (Server) async throws -> T
    ) async throws -> T {
        do {
            let result = try await body(server)
            await shutdown(server)
            return result
        } catch {
            await shutdown(server)
            throw error
        }
    }

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        return URLSession(configuration: configuration)
    }()
}
