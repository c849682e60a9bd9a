import ActuateTestSupport
import Foundation

/// Runs a program to completion, feeding it standard input and collecting its output.
enum ChildProcess {
    struct Result {
        var status: Int32
        /// Whether a signal ended the process (a trap, for one); `status` is then the signal's number.
        var signaled = false
        var output: Data
        var error: String

        var outputText: String { String(decoding: output, as: UTF8.self) }
    }

    /// Runs `executable` with `arguments` on a thread of its own, so that waiting for it never holds one of
    /// the few threads that Swift concurrency, and so every other test running in parallel, depends on.
    ///
    /// - Parameters:
    ///   - executable: The program.
    ///   - arguments: Its arguments.
    ///   - input: Its standard input; empty by default.
    static func run(_ executable: URL, _ arguments: [String], input: Data = Data()) async throws -> Result {
        try await onOwnThread { () throws -> Result in try runBlocking(executable, arguments, input: input) }
    }

    private static func runBlocking(_ executable: URL, _ arguments: [String], input: Data) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let writer = Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let errorReader = ErrorReader(stderr.fileHandleForReading)
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let error = errorReader.finish()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            signaled: process.terminationReason == .uncaughtSignal,
            output: output,
            error: error
        )
    }

    /// Finds an executable on `PATH`.
    static func onPath(_ name: String) -> URL? {
        ChildProcessIO.findOnPath(name)
    }

    /// The `actuate` binary, which SwiftPM builds next to the test bundle.
    static func actuateExecutable() throws -> URL {
        try ChildProcessIO.builtExecutable(named: "actuate")
    }
}

/// Reads a pipe to its end on a thread of its own, so that a child filling both pipes never blocks.
private final class ErrorReader: @unchecked Sendable {
    // Safe: `data` is written only by the reading thread before it signals `done`, and read only after
    // `finish()` has waited for that signal.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }
        .start()
    }

    func finish() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
