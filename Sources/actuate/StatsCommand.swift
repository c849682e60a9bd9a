import ActuateReporting
import Foundation

/// `actuate stats STORE_DIR [--json] [--page-size N]`.
enum StatsCommand {
    static func run(_ arguments: [String], io: any ToolIO) throws {
        let parsed = try CommandLineArguments(
            arguments,
            command: "stats",
            options: ["--page-size"],
            flags: ["--json"]
        )
        if parsed.wantsHelp {
            io.write(HelpText.stats)
            return
        }
        let path = try parsed.single("STORE_DIR", command: "stats")
        var pageSize = ReportingStatistics.defaultPageSize
        if let text = parsed.values["--page-size"] {
            guard let value = Int(text), value > 0 else {
                throw ToolError.usage("--page-size must be a whole number above 0, not \"\(text)\"", command: "stats")
            }
            pageSize = value
        }
        let statistics: ReportingStatistics
        var skipped: [String] = []
        do {
            statistics = try ReportingStatistics(
                fileStoreDirectory: URL(fileURLWithPath: path),
                pageSize: pageSize,
                attributionWindow: ReportingStatistics.defaultAttributionWindow,
                skippedFiles: &skipped
            )
        } catch {
            throw ToolError.failure(error.description)
        }
        // A link named like a journal file is never followed: it is left alone and reported, and the figures
        // come from the regular files only.
        for name in skipped {
            io.writeError(
                "actuate: skipped \(name) in \(path): not a regular file (a symbolic link or another kind of file), "
                    + "so it was neither read nor changed\n"
            )
        }
        if parsed.flags.contains("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            io.write(String(decoding: try encoder.encode(statistics), as: UTF8.self) + "\n")
        } else {
            let deadLetters =
                statistics.deadLetterCount == 0
                ? "No dead letters: delivery has given up on no event."
                : "Dead letters: \(statistics.deadLetterCount) events that delivery gave up on are kept in the "
                    + "store's dead-letter file and left out of the figures above."
            // Content names and dead-letter reasons come from servers and pages: no escape sequence reaches the terminal.
            io.write(
                TerminalText.escapedKeepingLines(
                    "Statistics of the event store \(path)\n\n\(statistics.description)\n\n\(deadLetters)\n"
                )
            )
        }
    }
}
