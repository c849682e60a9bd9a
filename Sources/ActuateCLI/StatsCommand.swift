import ActuatePersonalization
import ActuateReporting
import Foundation

/// `actuate stats STORE_DIR [--json] [--html OUT.html] [--series day|hour] [--page-size N]`.
enum StatsCommand {
    static func run(_ arguments: [String], io: any ToolIO) throws {
        let parsed = try CommandLineArguments(
            arguments,
            command: "stats",
            options: ["--page-size", "--html", "--series"],
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
        var seriesInterval = SeriesInterval.day
        if let text = parsed.values["--series"] {
            guard let value = SeriesInterval(rawValue: text) else {
                throw ToolError.usage("--series must be day or hour, not \"\(text)\"", command: "stats")
            }
            seriesInterval = value
        }
        let report: StatisticsReport
        var skipped: [String] = []
        do {
            report = try StatisticsReport(
                fileStoreDirectory: URL(fileURLWithPath: path),
                pageSize: pageSize,
                goal: .purchase,
                seriesInterval: seriesInterval,
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
        if let html = parsed.values["--html"] {
            let page: String
            do {
                page = try StatisticsPage(report: report, title: "Actuate statistics of \(path)").html()
            } catch {
                throw ToolError.failure("cannot build the statistics page: \(error)")
            }
            try OutputFile.write(Data(page.utf8), to: html)
            let message =
                "Wrote the statistics page (\(report.statistics.contents.count) contents, "
                + "\(report.campaigns.count) campaigns, \(report.statistics.actions.count) actions) to \(html)\n"
            if parsed.flags.contains("--json") { io.writeError(message) } else { io.write(message) }
        }
        if parsed.flags.contains("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            io.write(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
        } else if parsed.values["--html"] == nil {
            io.write(text(of: report, path: path))
        }
    }

    /// The table, the campaigns' lifts and the dead letters, with nothing from the store able to reach the
    /// terminal as an escape sequence.
    private static func text(of report: StatisticsReport, path: String) -> String {
        let statistics = report.statistics
        let deadLetters =
            statistics.deadLetterCount == 0
            ? "No dead letters: delivery has given up on no event."
            : "Dead letters: \(statistics.deadLetterCount) events that delivery gave up on are kept in the "
                + "store's dead-letter file and left out of the figures above."
        let campaigns =
            report.campaigns.isEmpty
            ? ""
            : "Campaign lift against control (95% intervals: Wilson for rates, Katz's log method for lift):\n"
                + report.campaigns.map { "  \($0)" }.joined(separator: "\n") + "\n\n"
        // Content names and dead-letter reasons come from servers and pages: no escape sequence reaches the terminal.
        return TerminalText.escapedKeepingLines(
            "Statistics of the event store \(path)\n\n\(statistics.description)\n\n\(campaigns)\(deadLetters)\n"
        )
    }
}
