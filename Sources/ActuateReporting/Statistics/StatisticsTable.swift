import Foundation

/// Renders ``ReportingStatistics`` as a fixed-width text table; each rate is followed by its 95% Wilson interval in
/// brackets, so a rate measured on a handful of impressions does not read as exact.
struct StatisticsTable {
    let statistics: ReportingStatistics

    private static let headers = [
        "Content", "Shown", "Clicks", "CTR", "Closes", "Close rate", "Products", "Articles", "Errors",
        "Visit CTR", "Purchases",
    ]

    func render() -> String {
        var rows = statistics.contents.map { row(label: label(for: $0.content), figures: $0.figures) }
        rows.append(row(label: "All content", figures: statistics.totals))
        let widths = Self.headers.indices.map { column in
            ([Self.headers[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
        }
        var lines = [format(Self.headers, widths: widths)]
        lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        lines += rows.dropLast().map { format($0, widths: widths) }
        if !statistics.contents.isEmpty {
            lines.append(lines[1])
        }
        lines.append(format(rows[rows.count - 1], widths: widths))
        lines.append(summary())
        return lines.joined(separator: "\n")
    }

    private func label(for content: ContentReference) -> String {
        let text = content.description
        return text.count > 40 ? String(text.prefix(39)) + "…" : text
    }

    private func row(label: String, figures: ContentFigures) -> [String] {
        [
            label, String(figures.impressions), String(figures.clicks),
            rate(figures.clickThroughRate, figures.clickThroughRateInterval), String(figures.closes),
            rate(figures.closeRate, figures.closeRateInterval), String(figures.productClicks),
            String(figures.articleClicks), String(figures.errors),
            rate(figures.visitClickThroughRate, figures.visitClickThroughRateInterval),
            String(figures.attributedPurchases),
        ]
    }

    private func format(_ cells: [String], widths: [Int]) -> String {
        cells.enumerated().map { column, cell in
            let padding = String(repeating: " ", count: max(0, widths[column] - cell.count))
            return column == 0 ? cell + padding : padding + cell
        }
        .joined(separator: "  ")
    }

    /// For example `25.0% [4.6–69.9]`: the rate, then its 95% interval in percent.
    private func rate(_ rate: Double?, _ interval: RateInterval?) -> String {
        guard let interval else { return percent(rate) }
        return percent(rate) + String(format: " [%.1f–%.1f]", interval.lower * 100, interval.upper * 100)
    }

    private func percent(_ rate: Double?) -> String {
        guard let rate else { return "-" }
        return String(format: "%.1f%%", rate * 100)
    }

    private func summary() -> String {
        let days = statistics.attributionWindowSeconds / 86_400
        let window = days == days.rounded() ? "\(Int(days))d" : String(format: "%.2fd", days)
        return "Events: \(statistics.eventCount), sessions: \(statistics.sessionCount), "
            + "purchased products: \(statistics.purchasedProducts) "
            + "(\(statistics.totals.attributedPurchases) from product clicks, contribution "
            + "\(percent(statistics.contributionRate)), window \(window)), "
            + "dead letters: \(statistics.deadLetterCount), malformed events: \(statistics.malformedEventCount)"
    }
}
