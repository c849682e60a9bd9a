/// A command line split into positional arguments, options with values and flags.
///
/// Options are written `--name VALUE` or `--name=VALUE`; `--` ends the options, and `-` alone is positional
/// (standard input).
struct CommandLineArguments {
    /// The positional arguments, in order.
    private(set) var positionals: [String] = []
    /// The value of each option given.
    private(set) var values: [String: String] = [:]
    /// The flags given.
    private(set) var flags: Set<String> = []

    /// Splits `arguments` for `command`.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the command's name.
    ///   - command: The command's name, for error messages.
    ///   - options: The options that take a value, such as `--html`.
    ///   - flags: The options that take none, such as `--json`. `--help` and `-h` are always flags.
    /// - Throws: ``ToolError/usage(_:command:)`` for an unknown option, a missing value, or a repeated option.
    init(_ arguments: [String], command: String, options: Set<String> = [], flags: Set<String> = []) throws(ToolError) {
        let flagNames = flags.union(["--help", "-h"])
        var remaining = arguments[...]
        var optionsEnded = false
        while let argument = remaining.popFirst() {
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            let inlineValue = argument.contains("=") ? String(argument.dropFirst(name.count + 1)) : nil
            if flagNames.contains(name) {
                guard inlineValue == nil else {
                    throw .usage("\(name) takes no value", command: command)
                }
                self.flags.insert(name == "-h" ? "--help" : name)
            } else if options.contains(name) {
                guard values[name] == nil else { throw .usage("\(name) is given twice", command: command) }
                if let inlineValue {
                    values[name] = inlineValue
                } else if let next = remaining.first, !next.hasPrefix("--") {
                    values[name] = next
                    remaining = remaining.dropFirst()
                } else {
                    throw .usage("\(name) needs a value", command: command)
                }
                guard values[name]?.isEmpty == false else { throw .usage("\(name) needs a value", command: command) }
            } else {
                throw .usage("unknown option \(name) for `actuate \(command)`", command: command)
            }
        }
    }

    /// Whether `--help` or `-h` was given.
    var wantsHelp: Bool { flags.contains("--help") }

    /// The one positional argument a command needs.
    ///
    /// - Parameters:
    ///   - name: How the help names it, such as `REPORT.json`.
    ///   - command: The command, for error messages.
    /// - Returns: The argument.
    /// - Throws: ``ToolError/usage(_:command:)`` when there is none or more than one.
    func single(_ name: String, command: String) throws(ToolError) -> String {
        guard let first = positionals.first else { throw .usage("\(name) is missing", command: command) }
        guard positionals.count == 1 else {
            throw .usage("unexpected argument \"\(positionals[1])\" after \(name)", command: command)
        }
        return first
    }
}
