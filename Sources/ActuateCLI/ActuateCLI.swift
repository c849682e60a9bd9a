import Foundation

/// `actuate`: renders debug reports, computes statistics from event stores, renders action catalogs and checks
/// personalization rules files.
@main
enum ActuateCLI {
    static func main() {
        let code = ActuateTool.run(Array(CommandLine.arguments.dropFirst()), io: StandardIO())
        exit(code)
    }
}

/// What a command did: the process's exit status.
enum ExitStatus {
    /// Everything worked.
    static let success: Int32 = 0
    /// The input could not be read or was not valid, or an output could not be written.
    static let failure: Int32 = 1
    /// The command line was wrong.
    static let usage: Int32 = 2
}

/// Runs one command line.
enum ActuateTool {
    /// Runs a command line and returns its exit status; output and errors go to `io`.
    static func run(_ arguments: [String], io: any ToolIO) -> Int32 {
        guard let command = arguments.first else {
            io.writeError(HelpText.tool)
            return ExitStatus.usage
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "dump": try DumpCommand.run(rest, io: io)
            case "stats": try StatsCommand.run(rest, io: io)
            case "export": try ExportCommand.run(rest, io: io)
            case "catalog": try CatalogCommand.run(rest, io: io)
            case "validate": try ValidateCommand.run(rest, io: io)
            case "help", "--help", "-h":
                if let topic = rest.first {
                    guard let text = HelpText.command(topic) else {
                        throw ToolError.usage("there is no command \"\(topic)\"", command: nil)
                    }
                    io.write(text)
                } else {
                    io.write(HelpText.tool)
                }
            case "--version":
                io.write("actuate, debug report format \(ReportDocument.supportedFormatVersion)\n")
            default:
                throw ToolError.usage("there is no command \"\(command)\"", command: nil)
            }
            return ExitStatus.success
        } catch let error as ToolError {
            // Messages quote files (a rules file's keys, a report's values): no control character of theirs
            // reaches the terminal.
            io.writeError(TerminalText.escapedKeepingLines(error.message))
            return error.exitStatus
        } catch {
            io.writeError(TerminalText.escapedKeepingLines("actuate: \(error)\n"))
            return ExitStatus.failure
        }
    }
}
