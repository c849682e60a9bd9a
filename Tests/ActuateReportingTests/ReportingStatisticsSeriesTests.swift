import ActuateReporting
import Foundation
import Testing

@Suite("Reporting statistics: series per day or hour, and intervals on every rate")
struct ReportingStatisticsSeriesTests {
    /// 2026-01-01T00:00:00Z.
    private static let newYear = Date(timeIntervalSince1970: 1_767_225_600)
    private static let banner = ContentReference.sampleAction(id: 7, name: "Banner")

    private static func content(_ event: SampleContent, at date: Date, session: String = "s1") -> ReportEvent {
        ReportEvent(
            type: event.type.rawValue,
            timestamp: date,
            sessionID: session,
            anonymousID: "anon-1",
            properties: event.properties(for: banner)
        )
    }

    private static func purchase(_ products: [String], at date: Date) -> ReportEvent {
        ReportEvent(
            type: "purchase",
            timestamp: date,
            sessionID: "s2",
            anonymousID: "anon-1",
            properties: EventProperties.purchase(productIDs: products)
        )
    }

    @Test("impressions, clicks and credited purchases fall on their UTC day, by the events' timestamps")
    func dailySeries() throws {
        let events = [
            Self.content(.executed, at: Self.newYear.addingTimeInterval(-1)),  // 2025-12-31T23:59:59Z
            Self.content(.executed, at: Self.newYear),
            Self.content(.executed, at: Self.newYear.addingTimeInterval(3_600)),
            Self.content(.target(), at: Self.newYear.addingTimeInterval(3_700)),
            Self.content(.product(productID: "sku"), at: Self.newYear.addingTimeInterval(3_800)),
            Self.purchase(["sku"], at: Self.newYear.addingTimeInterval(86_400 + 10)),
        ]
        let statistics = ReportingStatistics(events: events)
        #expect(statistics.seriesInterval == .day)
        let series = try #require(statistics.contents.first?.series)
        #expect(series.map(\.start) == ["2025-12-31T00:00:00Z", "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"])
        #expect(series.map(\.impressions) == [1, 2, 0])
        #expect(series.map(\.clicks) == [0, 1, 0])
        #expect(series.map(\.conversions) == [0, 0, 1], "a purchase counts on its own day")
        #expect(series[1].clickThroughRate == 0.5)
        #expect(series[1].clickThroughRateInterval == RateInterval.wilson(successes: 1, trials: 2))
        #expect(series[2].clickThroughRate == nil && series[2].clickThroughRateInterval == nil)
    }

    @Test("by the hour when asked; a timestamp out of range is counted but left out of the series")
    func hourlySeriesAndHostileTimestamps() throws {
        let events = [
            Self.content(.executed, at: Self.newYear.addingTimeInterval(59 * 60)),
            Self.content(.executed, at: Self.newYear.addingTimeInterval(60 * 60)),
            Self.content(.executed, at: Date(timeIntervalSince1970: 1e300)),
            Self.content(.executed, at: Date(timeIntervalSince1970: -1e300)),
            Self.content(.executed, at: Date(timeIntervalSince1970: -1)),
        ]
        let statistics = ReportingStatistics(events: events, seriesInterval: .hour)
        let content = try #require(statistics.contents.first)
        #expect(content.figures.impressions == 5)
        #expect(
            content.series.map(\.start) == ["1969-12-31T23:00:00Z", "2026-01-01T00:00:00Z", "2026-01-01T01:00:00Z"]
        )
        let json = try JSONEncoder().encode(statistics)
        let decoded = try JSONDecoder().decode(ReportingStatistics.self, from: json)
        #expect(decoded == statistics)
    }

    @Test("the series grow with days, not events: 3,000 impressions over 3 days are 3 points")
    func boundedByDays() throws {
        let events = (0..<3_000).map { index in
            Self.content(.executed, at: Self.newYear.addingTimeInterval(Double(index) * 86.4))
        }
        let statistics = ReportingStatistics(events: events)
        let series = try #require(statistics.contents.first?.series)
        #expect(series.count == 3)
        #expect(series.map(\.impressions).reduce(0, +) == 3_000)
    }

    @Test("CTR, close rate and visit CTR carry Wilson intervals; a block shown 4 times is far from exact")
    func intervalsOnContentRates() throws {
        let events =
            (0..<4).map { Self.content(.executed, at: Self.newYear, session: "s\($0)") } + [
                Self.content(.target(), at: Self.newYear, session: "s0"),
                Self.content(.close(), at: Self.newYear, session: "s1"),
            ]
        let statistics = ReportingStatistics(events: events)
        let figures = try #require(statistics[Self.banner])
        #expect(figures.clickThroughRate == 0.25)
        #expect(figures.clickThroughRateInterval == RateInterval.wilson(successes: 1, trials: 4))
        let interval = try #require(figures.clickThroughRateInterval)
        #expect(interval.lower < 0.05 && interval.upper > 0.65, "\(interval)")
        #expect(figures.closeRateInterval == RateInterval.wilson(successes: 1, trials: 4))
        #expect(figures.visitClickThroughRateInterval == RateInterval.wilson(successes: 1, trials: 4))
        #expect(statistics.description.contains("25.0% [4.6–69.9]"), "\(statistics.description)")
        let json = String(decoding: try JSONEncoder().encode(statistics), as: UTF8.self)
        #expect(json.contains("\"clickThroughRateInterval\""))
    }

    @Test("an empty store has no rates and no intervals, and no NaN anywhere")
    func emptyStatistics() throws {
        let statistics = ReportingStatistics(events: [ReportEvent]())
        #expect(statistics.totals.clickThroughRateInterval == nil)
        #expect(statistics.contents.isEmpty)
        _ = try JSONEncoder().encode(statistics)
    }
}
