/// Renders a debug report as text: the timeline grouped by session, then the action stacks.
///
/// Every line is passed through ``TerminalText/escaped(_:)`` before it is coloured, so no string from the report
/// writes a control character to the terminal.
package struct ReportText {
    let report: ReportDocument
    /// Whether to colour failures with ANSI escapes.
    let colored: Bool

    package init(report: ReportDocument, colored: Bool) {
        self.report = report
        self.colored = colored
    }

    /// One line of output, before escaping and colouring.
    private struct Line: ExpressibleByStringLiteral {
        var text: String
        var failed = false

        init(_ text: String, failed: Bool = false) {
            self.text = text
            self.failed = failed
        }

        init(stringLiteral text: String) {
            self.init(text)
        }
    }

    package func render() -> String {
        var lines: [Line] = [
            Line("Actuate debug report (format \(report.formatVersion)), generated \(report.generatedAt)"),
            Line("Sections: \(report.sections.joined(separator: ", "))"),
            "",
        ]
        lines += timeline()
        lines += stacks()
        let others = report.sections.filter { $0 != "timeline" && $0 != "actionStacks" }
        if !others.isEmpty {
            lines += ["", Line("Other sections in the JSON: \(others.joined(separator: ", ")).")]
        }
        return lines.map(styled).joined(separator: "\n") + "\n"
    }

    /// The line with its control characters escaped, in red when it is a failure and colours are on.
    private func styled(_ line: Line) -> String {
        let text = TerminalText.escaped(line.text)
        return line.failed && colored ? "\u{1B}[1;31m\(text)\u{1B}[0m" : text
    }

    private func timeline() -> [Line] {
        let entries = report.timeline.entries
        let failed = entries.filter { $0.status == .failure }.count
        let sessions = orderedSessions(entries)
        var lines = [
            Line(
                "Timeline: \(count(entries.count, "action")) in \(count(sessions.count, "session")), "
                    + "\(failed) failed (keeps the last \(report.timeline.maxEntries))"
            )
        ]
        guard let origin = entries.map(\.startOffsetNanoseconds).min() else {
            return lines + ["  (no actions)"]
        }
        for session in sessions {
            let inSession = entries.filter { $0.sessionName == session }.sorted {
                ($0.startOffsetNanoseconds, $0.requestID) < ($1.startOffsetNanoseconds, $1.requestID)
            }
            let sessionFailures = inSession.filter { $0.status == .failure }.count
            lines += [
                "",
                Line(
                    "Session \"\(session)\": \(count(inSession.count, "action"))"
                        + (sessionFailures > 0 ? ", \(sessionFailures) failed" : "")
                ),
            ]
            lines += inSession.map { line(for: $0, origin: origin) }
        }
        return lines
    }

    private func line(for entry: ReportTimelineEntry, origin: Int64) -> Line {
        let marker =
            switch entry.status {
            case .success: "✓"
            case .failure: "✗"
            case .cancelled: "⊘"
            case .running: "…"
            }
        let offset = DurationText.offset(nanoseconds: Nanoseconds.between(origin, entry.startOffsetNanoseconds))
        let duration = entry.durationNanoseconds.map { DurationText.format(nanoseconds: $0) } ?? "running"
        let input =
            entry.inputDescription.isEmpty || entry.inputDescription == "none" ? "" : " (\(entry.inputDescription))"
        var details = ["#\(entry.requestID)", "queue \(entry.queueLabel)", "started \(entry.startDate)"]
        if entry.source.kind != "application" { details.append("via \(entry.source)") }
        if !entry.userInitiated { details.append("automatic") }
        let outcome = entry.outcome?.description ?? "still running"
        let text =
            "  \(marker) \(pad(offset, 14)) \(pad(duration, 9))  \(entry.title)\(input) → \(outcome)"
            + "  [\(details.joined(separator: ", "))]"
        return Line(text, failed: entry.status == .failure)
    }

    private func stacks() -> [Line] {
        guard report.sections.contains("actionStacks") else { return [] }
        guard let stacks = report.actionStacks else {
            return ["", "Action stacks: the section is present but could not be read."]
        }
        var lines: [Line] = [
            "", Line("Action stacks: \(stacks.open.count) open, \(stacks.closed.count) recently closed"),
        ]
        for (title, group) in [("Open", stacks.open), ("Closed", stacks.closed)] where !group.isEmpty {
            lines.append(Line("  \(title):"))
            for stack in group {
                var header = "    #\(stack.id) [\(stack.sessionName)] \(stack.featureName)"
                if let parent = stack.parentID { header += ", parent #\(parent)" }
                if let opened = stack.openedAt { header += ", opened \(opened)" }
                if let closed = stack.closedAt {
                    header += ", closed \(closed)" + (stack.closeReason.map { " (\($0))" } ?? "")
                }
                lines.append(Line(header))
                if let evicted = stack.evictedEntryCount, evicted > 0 {
                    lines.append(Line("      … \(count(evicted, "older action")) evicted"))
                }
                for entry in stack.entries {
                    let input = entry.inputDescription.map { $0 == "none" || $0.isEmpty ? "" : " (\($0))" } ?? ""
                    let outcome = entry.outcome?.description ?? "still running"
                    let text = "      #\(entry.requestID) \(entry.actionName)\(input) → \(outcome)"
                    lines.append(Line(text, failed: entry.outcome?.status == .failure))
                }
            }
        }
        return lines
    }

    private func orderedSessions(_ entries: [ReportTimelineEntry]) -> [String] {
        var sessions: [String] = []
        let sorted = entries.sorted { $0.startOffsetNanoseconds < $1.startOffsetNanoseconds }
        for entry in sorted where !sessions.contains(entry.sessionName) { sessions.append(entry.sessionName) }
        return sessions
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    private func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
