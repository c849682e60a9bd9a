/// Why a command stopped: a wrong command line, or input or output that failed.
enum ToolError: Error, Equatable {
    /// The command line is wrong; `command` names the subcommand whose help explains it.
    case usage(String, command: String?)
    /// The command could not do its work.
    case failure(String)

    /// The text written to standard error.
    var message: String {
        switch self {
        case .usage(let problem, let command):
            let help = command.map { "actuate \($0) --help" } ?? "actuate --help"
            return "actuate: \(problem)\nRun `\(help)` for usage.\n"
        case .failure(let problem):
            return "actuate: \(problem)\n"
        }
    }

    /// The process's exit status.
    var exitStatus: Int32 {
        switch self {
        case .usage: ExitStatus.usage
        case .failure: ExitStatus.failure
        }
    }
}
