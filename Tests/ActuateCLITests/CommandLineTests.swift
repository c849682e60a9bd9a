import Foundation
import Testing

@testable import ActuateCLI

@Suite("actuate: command line")
struct CommandLineTests {
    @Test("splits positionals, options with separate or inline values, and flags")
    func parses() throws {
        let parsed = try CommandLineArguments(
            ["report.json", "--html", "a.html", "--trace=b.json", "--json", "--", "--literal"],
            command: "dump",
            options: ["--html", "--trace"],
            flags: ["--json"]
        )
        #expect(parsed.positionals == ["report.json", "--literal"])
        #expect(parsed.values == ["--html": "a.html", "--trace": "b.json"])
        #expect(parsed.flags == ["--json"])
        #expect(!parsed.wantsHelp)
        #expect(try CommandLineArguments(["-h"], command: "dump").wantsHelp)
    }

    @Test(
        "usage errors name the problem and the help to read, with exit status 2",
        arguments: [
            (["dump"], "actuate: REPORT.json is missing\nRun `actuate dump --help` for usage.\n"),
            (["dump", "a.json", "b.json"], "actuate: unexpected argument \"b.json\" after REPORT.json\n"),
            (["dump", "a.json", "--html"], "actuate: --html needs a value\n"),
            (["dump", "a.json", "--html", "--trace", "t.json"], "actuate: --html needs a value\n"),
            (["dump", "a.json", "--html=", "x"], "actuate: --html needs a value\n"),
            (["dump", "a.json", "--html", "a", "--html", "b"], "actuate: --html is given twice\n"),
            (["dump", "a.json", "--colour"], "actuate: unknown option --colour for `actuate dump`\n"),
            (["stats", "dir", "--json=yes"], "actuate: --json takes no value\n"),
            (["stats", "dir", "--page-size", "0"], "actuate: --page-size must be a whole number above 0, not \"0\"\n"),
            (["catalog", "a", "b"], "actuate: unexpected argument \"b\" after FILE\n"),
            (["frobnicate"], "actuate: there is no command \"frobnicate\"\nRun `actuate --help` for usage.\n"),
            (["help", "frobnicate"], "actuate: there is no command \"frobnicate\"\n"),
        ]
    )
    func usageErrors(arguments: [String], message: String) {
        let result = runTool(arguments)
        #expect(result.status == 2)
        #expect(result.output == "")
        #expect(result.error.hasPrefix(message))
    }

    @Test("no command prints the overview to stderr with status 2; help prints it to stdout")
    func overview() {
        let bare = runTool([])
        #expect(bare.status == 2)
        #expect(bare.error.contains("Commands:"))
        for arguments in [["--help"], ["help"], ["-h"]] {
            let help = runTool(arguments)
            #expect(help.status == 0)
            #expect(help.output == HelpText.tool)
        }
    }

    @Test("--version names the debug report format it reads")
    func version() {
        let result = runTool(["--version"])
        #expect(result.status == 0)
        #expect(result.output == "actuate, debug report format 1\n")
    }

    @Test("each command has its own help, by --help or by `help COMMAND`", arguments: ["dump", "stats", "catalog"])
    func commandHelp(command: String) throws {
        let text = try #require(HelpText.command(command))
        #expect(text.hasPrefix("Usage: actuate \(command) "))
        #expect(runTool([command, "--help"]).output == text)
        #expect(runTool(["help", command]).output == text)
        #expect(runTool([command, "-h"]).status == 0)
    }
}
