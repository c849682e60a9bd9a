import Foundation

/// The JournalWriter helper binary, run as a child process whose output the test reads line by line.
public final class JournalWriterProcess {
    private let process = Process()
    private let output = Pipe()
    private let input = Pipe()
    private var buffer: [UInt8] = []

    /// The child's process id.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Starts the helper with `arguments`.
    public init(arguments: [String]) throws {
        process.executableURL = try ChildProcessIO.builtExecutable(named: "JournalWriter")
        process.arguments = arguments
        process.standardOutput = output
        process.standardInput = input
        try process.run()
    }

    /// The next line the child wrote, waiting for it; `nil` at end of output.
    public func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(output.fileHandleForReading.fileDescriptor, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// What a helper wrote before it was killed, and when it was killed.
    public struct KilledOutput: Sendable {
        /// Every line it wrote, those left in the pipe after the kill included.
        public let lines: [String]
        /// `CLOCK_MONOTONIC` in nanoseconds just before the kill.
        public let killedAt: Int64
    }

    /// Runs the helper with `arguments` on a thread of its own, so that waiting for its output holds no thread of
    /// the cooperative pool; reads `count` lines (fewer if it exits first) and kills it with SIGKILL.
    public static func outputUntilKilled(arguments: [String], killAfter count: Int) async throws -> KilledOutput {
        try await onOwnThread { () throws -> KilledOutput in
            let writer = try JournalWriterProcess(arguments: arguments)
            var lines: [String] = []
            while lines.count < count, let line = writer.readLine() { lines.append(line) }
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            writer.kill()
            return KilledOutput(
                lines: lines + writer.remainingLines(),
                killedAt: Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
            )
        }
    }

    /// Runs the helper with `arguments` on a thread of its own, closes its stdin once it has written a line, and
    /// returns that line and its exit status.
    public static func firstLineAndStatus(arguments: [String]) async throws -> (firstLine: String?, status: Int32) {
        try await onOwnThread { () throws -> (firstLine: String?, status: Int32) in
            let child = try JournalWriterProcess(arguments: arguments)
            let line = child.readLine()
            return (line, child.finish())
        }
    }

    /// Kills the child with SIGKILL and waits for it to exit.
    public func kill() {
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The complete lines left in the pipe once the child has exited.
    public func remainingLines() -> [String] {
        let descriptor = output.fileHandleForReading.fileDescriptor
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var lines: [String] = []
        while let line = readLine() { lines.append(line) }
        return lines
    }

    /// Closes the child's stdin, which tells a `hold` helper to close its store and exit, and waits for it.
    public func finish() -> Int32 {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
