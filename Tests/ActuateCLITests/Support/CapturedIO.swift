import Foundation
import Synchronization

@testable import ActuateCLI

/// Standard streams in memory, for running commands inside the test process.
final class CapturedIO: ToolIO {
    private let streams = Mutex((output: "", error: ""))
    private let input: Data?

    /// - Parameter input: What standard input holds; nil makes it a terminal.
    init(input: Data? = nil) {
        self.input = input
    }

    var output: String { streams.withLock { $0.output } }
    var error: String { streams.withLock { $0.error } }

    func write(_ text: String) {
        streams.withLock { $0.output += text }
    }

    func writeError(_ text: String) {
        streams.withLock { $0.error += text }
    }

    func readStandardInput() throws -> Data {
        input ?? Data()
    }

    var standardInputIsTerminal: Bool { input == nil }
    var standardOutputIsTerminal: Bool { false }
}

/// The result of running a command line.
struct CommandResult {
    var status: Int32
    var output: String
    var error: String
}

/// Runs `actuate` with `arguments` inside the test process.
func runTool(_ arguments: [String], input: Data? = nil) -> CommandResult {
    let io = CapturedIO(input: input)
    let status = ActuateTool.run(arguments, io: io)
    return CommandResult(status: status, output: io.output, error: io.error)
}
