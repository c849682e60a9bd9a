import ActuatePersonalization
import Foundation

/// `actuate validate RULES.json`: checks a personalization rules file and reports every problem with its JSON
/// path; exits 0 only when the file is clean.
enum ValidateCommand {
    static func run(_ arguments: [String], io: any ToolIO) throws {
        let parsed = try CommandLineArguments(arguments, command: "validate", options: [], flags: [])
        if parsed.wantsHelp {
            io.write(HelpText.validate)
            return
        }
        let path = try parsed.single("RULES.json", command: "validate")
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ToolError.failure("\(path): there is no such rules file")
        }
        guard !isDirectory.boolValue else { throw ToolError.failure("\(path): it is a directory, not a rules file") }
        let problems = RulesFile.validate(contentsOf: url)
        guard problems.isEmpty else {
            throw ToolError.failure(RulesFileError(file: path, problems: problems).description)
        }
        io.write("\(path): valid\n")
    }
}
