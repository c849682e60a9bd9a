import Foundation
import Testing

/// Finds WebKitGTK (through python3-gi) and Xvfb, and runs `Tests/Support/browser_bridge_driver.py` under
/// `xvfb-run`.
enum BrowserEngine {
    /// What the driver reports; see the driver's documentation.
    struct Report: Decodable, Sendable {
        struct Message: Decodable, Sendable, Hashable {
            var kind: String
            var text: String?
            var json: String?

            /// What a surface hands the app: the string posted, or an empty string for a body that is not one.
            var delivered: String { kind == "string" ? text ?? "" : "" }
        }

        struct Navigation: Decodable, Sendable, Hashable {
            var uri: String
            var newWindow: Bool
        }

        struct Click: Decodable, Sendable {
            var id: String
            var delivered: Bool
            var target: String?
            var messages: [Message]
            var navigations: [Navigation]
            var dialogs: [Dialog]
            var error: String?
        }

        struct Dialog: Decodable, Sendable, Hashable {
            var type: Int
            var message: String
        }

        var engine: String
        var loaded: Bool
        var loadMessages: [Message]
        var clicks: [Click]
        var lateMessages: [Message]
        var navigations: [Navigation]
        var newWindows: [String]
        var dialogs: [Dialog]
        var finalUri: String?
        var markerPresent: Bool
        var documentText: String?
        var error: String?

        func click(_ id: String) -> Click? { clicks.first { $0.id == id } }

        /// Every message the page posted, in order: while loading, for each click, after the last click.
        var allMessages: [Message] { loadMessages + clicks.flatMap(\.messages) + lateMessages }
    }

    /// The tools the test needs, or why they are missing.
    struct Tools: Sendable {
        var xvfbRun: URL
        var python: URL
    }

    static let installHint =
        "install them with `apt-get install -y gir1.2-webkit2-4.1 python3-gi xvfb xauth` (Debian), as .ci/run does"

    /// Looks for `xvfb-run` and a Python 3 that can load WebKit2 4.1: ACTUATE_BROWSER_PYTHON alone when it is
    /// set, otherwise /usr/bin/python3, then python3 on PATH.
    static func findTools() async -> Result<Tools, MissingEngine> {
        guard let xvfbRun = ChildProcess.findOnPath("xvfb-run") else {
            return .failure(MissingEngine(reason: "xvfb-run is not installed; \(installHint)"))
        }
        var candidates: [URL] = []
        if let chosen = ProcessInfo.processInfo.environment["ACTUATE_BROWSER_PYTHON"] {
            candidates.append(URL(fileURLWithPath: chosen))
        } else {
            candidates.append(URL(fileURLWithPath: "/usr/bin/python3"))
            if let onPath = ChildProcess.findOnPath("python3") { candidates.append(onPath) }
        }
        let probe =
            "import gi; gi.require_version('Gtk', '3.0'); gi.require_version('WebKit2', '4.1'); "
            + "from gi.repository import Gtk, WebKit2"
        for python in candidates where FileManager.default.isExecutableFile(atPath: python.path) {
            if (try? await ChildProcess.run(python, ["-c", probe]))?.status == 0 {
                return .success(Tools(xvfbRun: xvfbRun, python: python))
            }
        }
        return .failure(
            MissingEngine(reason: "no python3 with python3-gi and WebKit2 4.1 (WebKitGTK) was found; \(installHint)")
        )
    }

    struct MissingEngine: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    struct DriverFailed: Error, CustomStringConvertible {
        var status: Int32
        var output: String
        var description: String { "the browser driver exited with \(status) without a report:\n\(output)" }
    }

    /// Loads `html` in the engine if there is one, clicks `clicks`, and returns the report, or why there is none
    /// (``MissingEngine``) or why the run failed. Suites keep the result in a static `Task` so that their tests
    /// share one engine run.
    static func runIfAvailable(html: String, handler: String, clicks: [String]) async -> Result<Report, any Error> {
        switch await findTools() {
        case .failure(let missing):
            return .failure(missing)
        case .success(let tools):
            do {
                return .success(
                    try await run(
                        html: html,
                        handler: handler,
                        clicks: clicks,
                        markerID: "actuate-marker",
                        tools: tools
                    )
                )
            } catch {
                return .failure(error)
            }
        }
    }

    /// The report of a shared run, or a skip when there is no engine: a failure when `ACTUATE_REQUIRE_BROWSER=1`.
    /// - Parameter run: The suite's shared run.
    /// - Returns: The report.
    /// - Throws: Why there is no report.
    static func report(of run: Task<Result<Report, any Error>, Never>) async throws -> Report {
        let result = await run.value
        if case .failure(let missing as MissingEngine) = result {
            if ProcessInfo.processInfo.environment["ACTUATE_REQUIRE_BROWSER"] == "1" {
                throw MissingEngine(reason: "ACTUATE_REQUIRE_BROWSER=1 but \(missing.reason)")
            }
            try Test.cancel("Skipped: \(missing.reason)")
        }
        return try result.get()
    }

    /// Loads `html` in the engine, clicks `clicks` by element id, and returns the driver's report.
    static func run(
        html: String,
        handler: String,
        clicks: [String],
        markerID: String,
        tools: Tools
    ) async throws
        -> Report
    {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let page = directory.appending("content.html")
        try Data(html.utf8).write(to: page)
        let spec: [String: JSONSpec] = [
            "html": .string(page.path), "handler": .string(handler), "clicks": .strings(clicks),
            "markerId": .string(markerID), "timeoutSeconds": .number(90),
        ]
        let specURL = directory.appending("spec.json")
        try JSONEncoder().encode(spec).write(to: specURL)
        let driver = RepositoryFiles.url("Tests/Support/browser_bridge_driver.py")
        let (status, output) = try await ChildProcess.run(
            tools.xvfbRun,
            ["-a", tools.python.path, driver.path, specURL.path]
        )
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("RESULT ") }) else {
            throw DriverFailed(status: status, output: output)
        }
        return try JSONDecoder().decode(Report.self, from: Data(line.dropFirst("RESULT ".count).utf8))
    }

    private enum JSONSpec: Encodable {
        case string(String)
        case strings([String])
        case number(Int)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .strings(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            }
        }
    }
}

extension ChildProcess {
    /// Runs a program to completion, returning its exit status and its standard output and error together.
    ///
    /// It never blocks a thread of the cooperative pool: the output is read on a dispatch queue and the exit
    /// is awaited through the termination handler.
    static func run(_ program: URL, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        let exited = ProcessExit()
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let output = await readToEnd(pipe.fileHandleForReading)
        await exited.wait()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
