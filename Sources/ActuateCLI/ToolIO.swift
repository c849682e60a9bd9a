import Foundation

/// Where a command writes its output and errors, and reads standard input.
protocol ToolIO: Sendable {
    /// Writes to standard output.
    func write(_ text: String)
    /// Writes to standard error.
    func writeError(_ text: String)
    /// Reads all of standard input.
    func readStandardInput() throws -> Data
    /// Whether standard input is a terminal, where nobody will pipe JSON.
    var standardInputIsTerminal: Bool { get }
    /// Whether standard output is a terminal, which gets colours.
    var standardOutputIsTerminal: Bool { get }
}

/// The process's own standard streams.
struct StandardIO: ToolIO {
    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    func readStandardInput() throws -> Data {
        try FileHandle.standardInput.readToEnd() ?? Data()
    }

    var standardInputIsTerminal: Bool { isatty(STDIN_FILENO) != 0 }

    var standardOutputIsTerminal: Bool {
        isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }
}
