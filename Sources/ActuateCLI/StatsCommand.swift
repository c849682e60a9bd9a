import ActuatePersonalization
import ActuateReporting
import Foundation

/// `actuate stats SOURCE... [--json] [--html OUT.html] [--series day|hour] [--page-size N]`: store directories,
/// collected batch files and NDJSON files, each event counted once.
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
        let paths = parsed.positionals
        guard !paths.isEmpty else { throw ToolError.usage("SOURCE is missing", command: "stats") }
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
        let (report, summary) = StatisticsReport.audience(
            AudienceEvents(sources: paths, pageSize: pageSize),
            goal: .purchase,
            seriesInterval: seriesInterval
        )
        // Every source that could not be read, or not wholly (a link named like a journal file is never followed),
        // is named; the figures come from what could be read, and the exit status is 1.
        for problem in summary.problems {
            io.writeError(TerminalText.escapedKeepingLines("actuate: \(problem)\n"))
        }
        let failure = sourceFailure(summary, sourceCount: paths.count)
        if summary.uniqueEvents == 0, let failure, summary.problems.count >= paths.count { throw failure }
        let path = paths.count == 1 ? paths[0] : "\(paths.count) sources"
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
            io.write(text(of: report, path: path, summary: summary, single: paths.count == 1))
        }
        if let failure { throw failure }
    }

    /// The error that makes the exit status 1 when a source could not be read wholly, or nil.
    static func sourceFailure(_ summary: AudienceEvents.Summary, sourceCount: Int) -> ToolError? {
        guard !summary.problems.isEmpty else { return nil }
        return .failure(
            "\(summary.problems.count) problem\(summary.problems.count == 1 ? "" : "s") reading \(sourceCount) "
                + "source\(sourceCount == 1 ? "" : "s") (listed above): what could not be read is not in the figures"
        )
    }

    /// The table, the campaigns' lifts and the dead letters, with nothing from the store able to reach the
    /// terminal as an escape sequence.
    private static func text(
        of report: StatisticsReport,
        path: String,
        summary: AudienceEvents.Summary,
        single: Bool
    ) -> String {
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
        let heading =
            single && summary.repeats == 0
            ? "Statistics of the event store \(path)"
            : "Statistics of \(path): \(summary.eventsRead) events read, \(summary.repeats) repeats of an event id "
                + "left out"
        // Content names and dead-letter reasons come from servers and pages: no escape sequence reaches the terminal.
        return TerminalText.escapedKeepingLines(
            "\(heading)\n\n\(statistics.description)\n\n\(campaigns)\(deadLetters)\n"
        )
    }
}
