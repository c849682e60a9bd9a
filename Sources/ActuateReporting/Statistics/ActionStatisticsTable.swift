import Foundation

/// Renders the per-action figures and the arrivals of ``ReportingStatistics`` as fixed-width text.
struct ActionStatisticsTable {
    let statistics: ReportingStatistics

    private static let headers = [
        "Action", "Performed", "Failed", "Failure rate", "p50", "p95", "App", "URL", "Activity", "Intent",
    ]

    /// The table and the arrivals line, or an empty string when the hooks recorded nothing.
    func render() -> String {
        var sections: [String] = []
        if !statistics.actions.isEmpty { sections.append(table()) }
        let arrivals = statistics.arrivals
        if arrivals.urlOpens > 0 || arrivals.activityContinuations > 0 || arrivals.activitiesPublished > 0 {
            sections.append(arrivalsSummary(arrivals))
        }
        return sections.joined(separator: "\n")
    }

    private func table() -> String {
        let rows = statistics.actions.map { action -> [String] in
            let figures = action.figures
            return [
                label(action), String(figures.performed), String(figures.failed),
                percent(figures.failureRate) + interval(figures.failureRateInterval),
                seconds(figures.medianDurationSeconds), seconds(figures.p95DurationSeconds),
                String(figures.arrivedFromApplication), String(figures.arrivedFromURL),
                String(figures.arrivedFromActivity), String(figures.arrivedFromIntent),
            ]
        }
        let widths = Self.headers.indices.map { column in
            ([Self.headers[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
        }
        var lines = [format(Self.headers, widths: widths)]
        lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        lines += rows.map { format($0, widths: widths) }
        return lines.joined(separator: "\n")
    }

    private func arrivalsSummary(_ arrivals: ArrivalFigures) -> String {
        var line =
            "URL opens: \(arrivals.urlOpens) (\(breakdown(arrivals.urlOpensByResult))), "
            + "broken links: \(arrivals.brokenLinkOpens), activities published: \(arrivals.activitiesPublished), "
            + "continued: \(arrivals.activityContinuations) (\(breakdown(arrivals.activityContinuationsByResult)))"
        for link in arrivals.brokenLinks {
            line += "\n  broken: \(link.url) (\(link.result), \(link.opens)×)"
        }
        return line
    }

    private func breakdown(_ counts: [String: Int]) -> String {
        counts.isEmpty ? "-" : counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    private func label(_ action: ActionStatistics) -> String {
        let text = action.actionName.isEmpty ? action.analyticsID : "\(action.actionName) (\(action.analyticsID))"
        return text.count > 40 ? String(text.prefix(39)) + "…" : text
    }

    private func format(_ cells: [String], widths: [Int]) -> String {
        cells.enumerated().map { column, cell in
            let padding = String(repeating: " ", count: max(0, widths[column] - cell.count))
            return column == 0 ? cell + padding : padding + cell
        }
        .joined(separator: "  ")
    }

    /// For example ` [4.6–69.9]`: a 95% interval in percent, or nothing without one.
    private func interval(_ interval: RateInterval?) -> String {
        guard let interval else { return "" }
        return String(format: " [%.1f–%.1f]", interval.lower * 100, interval.upper * 100)
    }

    private func percent(_ rate: Double?) -> String {
        guard let rate else { return "-" }
        return String(format: "%.1f%%", rate * 100)
    }

    private func seconds(_ value: Double?) -> String {
        guard let value else { return "-" }
        if value == 0 { return "0 ms" }
        return value < 1 ? String(format: "%.1f ms", value * 1_000) : String(format: "%.2f s", value)
    }
}
