import ActuateTesting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateReporting

/// Builds events by hand for statistics tests.
private struct EventBuilder {
    var origin = Date(timeIntervalSince1970: 1_767_225_600)
    var anonymousID = "anon-1"
    var userID: String?

    func content(
        _ event: SampleContent,
        _ content: ContentReference,
        session: String,
        at offset: TimeInterval = 0
    ) -> ReportEvent {
        ReportEvent(
            type: event.type.rawValue,
            timestamp: origin.addingTimeInterval(offset),
            sessionID: session,
            anonymousID: anonymousID,
            userID: userID,
            properties: event.properties(for: content)
        )
    }

    func purchase(_ productIDs: [String], session: String = "later", at offset: TimeInterval) -> ReportEvent {
        ReportEvent(
            type: "purchase",
            timestamp: origin.addingTimeInterval(offset),
            sessionID: session,
            anonymousID: anonymousID,
            userID: userID,
            properties: EventProperties.purchase(productIDs: productIDs)
        )
    }
}

private let day: TimeInterval = 86_400
/// Purchase times after the click, in seconds, and whether the purchase is credited.
private let attributionCases: [(TimeInterval, Bool)] = [
    (6 * day + 23 * 3_600, true),
    (7 * day, true),
    (7 * day + 1, false),
    (-1, false),
    (0, true),
]
private let recommendations = ContentReference.sampleAction(id: 12, name: "Recommended for you")

@Suite("Reporting statistics")
struct ReportingStatisticsTests {
    @Test("counts, CTR, close rate and CTR of visit per content and overall")
    func figures() throws {
        let build = EventBuilder()
        let events = [
            build.content(.executed, banner, session: "s1"),
            build.content(.executed, banner, session: "s1"),
            build.content(.target(), banner, session: "s1"),
            build.content(.executed, banner, session: "s2"),
            build.content(.close(dontShowSessions: 2), banner, session: "s2"),
            build.content(.executed, banner, session: "s3"),
            build.content(.product(productID: "sku-1"), banner, session: "s3"),
            build.content(.article(articleID: "a-1"), banner, session: "s3"),
            build.content(.error(message: "image"), banner, session: "s3"),
            build.content(.executed, recommendations, session: "s2"),
            build.content(.target(), recommendations, session: "s2"),
            ReportEvent(type: "session_start", timestamp: build.origin, sessionID: "s4", anonymousID: "anon-1"),
        ]
        let statistics = ReportingStatistics(events: events)

        let figures = try #require(statistics[.sampleAction(id: 7)])
        #expect(figures.impressions == 4)
        #expect(figures.clicks == 1)
        #expect(figures.clickThroughRate == 0.25)
        #expect(figures.closes == 1)
        #expect(figures.closeRate == 0.25)
        #expect(figures.productClicks == 1)
        #expect(figures.articleClicks == 1)
        #expect(figures.errors == 1)
        #expect(figures.sessionsWithImpression == 3)
        #expect(figures.sessionsWithClick == 1)
        #expect(figures.visitClickThroughRate == 1.0 / 3.0)

        #expect(statistics.totals.impressions == 5)
        #expect(statistics.totals.clicks == 2)
        #expect(statistics.totals.clickThroughRate == 0.4)
        // s1 and s2 had a click, s1, s2 and s3 an impression.
        #expect(statistics.totals.visitClickThroughRate == 2.0 / 3.0)
        #expect(statistics.eventCount == 12)
        #expect(statistics.sessionCount == 4)
        #expect(statistics.contents.map(\.content) == [banner, recommendations])
    }

    @Test("without impressions, rates are nil rather than a division by zero")
    func zeroImpressions() throws {
        let build = EventBuilder()
        let statistics = ReportingStatistics(events: [
            build.content(.target(), banner, session: "s1"),
            build.content(.close(), banner, session: "s1"),
        ])
        let figures = try #require(statistics[banner])
        #expect(figures.impressions == 0)
        #expect(figures.clicks == 1)
        #expect(figures.clickThroughRate == nil)
        #expect(figures.closeRate == nil)
        #expect(figures.visitClickThroughRate == nil)
        #expect(statistics.contributionRate == nil)
        #expect(statistics.description.contains("-"))

        let empty = ReportingStatistics(events: [])
        #expect(empty.contents.isEmpty)
        #expect(empty.totals.clickThroughRate == nil)
        #expect(empty.description.contains("All content"))
    }

    @Test(
        "a purchase is credited to a product click within the window, its end included",
        arguments: attributionCases
    )
    func attributionWindow(purchaseOffset: TimeInterval, credited: Bool) throws {
        let build = EventBuilder()
        let clickTime = 2 * day
        let statistics = ReportingStatistics(events: [
            build.content(.executed, recommendations, session: "s1", at: clickTime),
            build.content(.product(productID: "sku-1"), recommendations, session: "s1", at: clickTime),
            build.purchase(["sku-1", "sku-9"], at: clickTime + purchaseOffset),
        ])
        #expect(statistics[recommendations]?.attributedPurchases == (credited ? 1 : 0))
        #expect(statistics.totals.attributedPurchases == (credited ? 1 : 0))
        #expect(statistics.purchasedProducts == 2)
        #expect(statistics.contributionRate == (credited ? 0.5 : 0))
    }

    @Test("a shorter attribution window can be chosen")
    func customWindow() {
        let build = EventBuilder()
        let events = [
            build.content(.product(productID: "sku-1"), recommendations, session: "s1"),
            build.purchase(["sku-1"], at: 2 * day),
        ]
        #expect(ReportingStatistics(events: events).totals.attributedPurchases == 1)
        let short = ReportingStatistics(events: events, attributionWindow: .seconds(86_400))
        #expect(short.totals.attributedPurchases == 0)
        #expect(short.attributionWindow == .seconds(86_400))
    }

    @Test("only the same person's clicks count: same anonymous id, or same user id")
    func samePerson() {
        let clicker = EventBuilder(anonymousID: "anon-1", userID: "customer-42")
        let otherDevice = EventBuilder(anonymousID: "anon-2", userID: "customer-42")
        let stranger = EventBuilder(anonymousID: "anon-3")
        let statistics = ReportingStatistics(events: [
            clicker.content(.product(productID: "sku-1"), recommendations, session: "s1"),
            otherDevice.purchase(["sku-1"], at: day),
            stranger.purchase(["sku-1"], at: day),
        ])
        #expect(statistics.totals.attributedPurchases == 1)
        #expect(statistics.purchasedProducts == 2)
    }

    @Test("a purchase is credited once, to the most recent qualifying click")
    func lastClickWins() {
        let build = EventBuilder()
        let statistics = ReportingStatistics(events: [
            build.content(.product(productID: "sku-1"), banner, session: "s1", at: 0),
            build.content(.product(productID: "sku-1"), recommendations, session: "s2", at: day),
            build.purchase(["sku-1"], at: 2 * day),
        ])
        #expect(statistics[recommendations]?.attributedPurchases == 1)
        #expect(statistics[banner]?.attributedPurchases == 0)
        #expect(statistics.totals.attributedPurchases == 1)
    }

    @Test("content events that name no content are counted as malformed, unknown types are ignored")
    func badEvents() {
        let statistics = ReportingStatistics(events: [
            ReportEvent(type: "target", timestamp: .distantPast, sessionID: "s", anonymousID: "a"),
            ReportEvent(type: "dont-show", timestamp: .distantPast, sessionID: "s", anonymousID: "a"),
            ReportEvent(
                type: "purchase",
                timestamp: .distantPast,
                sessionID: "s",
                anonymousID: "a",
                properties: ["productIds": [1, 2]]
            ),
        ])
        #expect(statistics.malformedEventCount == 1)
        #expect(statistics.contents.isEmpty)
        #expect(statistics.purchasedProducts == 0)
        #expect(statistics.eventCount == 3)
    }

    @Test("statistics from a store read everything without removing it, and count dead letters")
    func fromStore() throws {
        let fixture = ReporterFixture()
        fixture.reporter.record(content: .executed, for: banner)
        fixture.reporter.record(content: .target(), for: banner)
        let dropped = try #require(fixture.reporter.record(content: .executed, for: recommendations).event)
        try fixture.store.moveToDeadLetter(ids: [dropped.id], reason: "HTTP 400")

        let statistics = try ReportingStatistics(store: fixture.store)

        #expect(statistics.deadLetterCount == 1)
        #expect(statistics.eventCount == 3)
        #expect(statistics[banner]?.clickThroughRate == 1)
        #expect(statistics[recommendations] == nil)
        #expect(try fixture.store.count() == 3)
        #expect(statistics.description.contains("dead letters: 1"))
    }

    @Test("a store that cannot be read gives a clear error")
    func unreadableStore() {
        #expect {
            try ReportingStatistics(store: UnreadableStore())
        } throws: { error in
            guard case ReportingError.storeFailed(let operation, let reason) = error else { return false }
            return operation.contains("statistics") && reason.contains("unreadable")
        }
    }

    @Test("statistics round-trip through JSON and render as a table")
    func codableAndTable() throws {
        let build = EventBuilder()
        let statistics = ReportingStatistics(
            events: [
                build.content(.executed, banner, session: "s1"),
                build.content(.executed, banner, session: "s2"),
                build.content(.target(), banner, session: "s2"),
                build.content(.product(productID: "sku-1"), banner, session: "s2"),
                build.purchase(["sku-1"], at: 60),
            ],
            deadLetterCount: 2
        )
        let data = try JSONEncoder().encode(statistics)
        let decoded = try JSONDecoder().decode(ReportingStatistics.self, from: data)
        #expect(decoded == statistics)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let totals = try #require(json["totals"] as? [String: Any])
        #expect(totals["clickThroughRate"] as? Double == 0.5)

        let table = statistics.description
        let lines = table.split(separator: "\n")
        #expect(lines[0].hasPrefix("Content"))
        #expect(lines[0].contains("CTR") && lines[0].contains("Visit CTR") && lines[0].contains("Close rate"))
        #expect(table.contains(#"action:7 "Summer banner""#))
        #expect(table.contains("50.0%"))
        #expect(table.contains("contribution 100.0%, window 7d"))
        #expect(table.contains("dead letters: 2"))
        // Every table row has the same width.
        let widths = Set(lines.dropLast().filter { !$0.hasPrefix("-") }.map { $0.count })
        #expect(widths.count <= 2)
    }

    @Test("statistics over a reporter's own events, with sessions on virtual time")
    func endToEnd() throws {
        let fixture = ReporterFixture()
        fixture.reporter.record(content: .executed, for: banner)
        fixture.reporter.record(content: .product(productID: "sku-1"), for: banner)
        fixture.scheduler.advance(by: .seconds(2 * 3_600))
        fixture.reporter.record(content: .executed, for: banner)
        fixture.reporter.record(content: .target(), for: banner)
        fixture.scheduler.advance(by: .seconds(3 * 86_400))
        fixture.reporter.record(type: .purchase, properties: EventProperties.purchase(productIDs: ["sku-1"]))

        let statistics = try ReportingStatistics(store: fixture.store)
        let figures = try #require(statistics[banner])
        #expect(figures.sessionsWithImpression == 2)
        #expect(figures.sessionsWithClick == 1)
        #expect(figures.visitClickThroughRate == 0.5)
        #expect(figures.attributedPurchases == 1)
        #expect(statistics.sessionCount == 3)
    }
}
