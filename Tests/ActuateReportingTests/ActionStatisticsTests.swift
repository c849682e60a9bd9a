import ActuateTesting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateReporting

/// An `action_ended` event as `ReportingAnalyticsProvider` records it.
private func ended(
    _ analyticsID: String,
    outcome: String = "success",
    duration: Double? = nil,
    source: String = "application",
    session: String = "s1"
) -> ReportEvent {
    var properties: [String: JSONValue] = [
        "analyticsId": .string(analyticsID), "action": .string(analyticsID.capitalized), "feature": "App/Shop",
        "outcome": .string(outcome), "source": .string(source),
    ]
    if let duration { properties["durationSeconds"] = .number(duration) }
    return ReportEvent(
        type: "action_ended",
        timestamp: Date(timeIntervalSince1970: 1_767_225_600),
        sessionID: session,
        anonymousID: "anon",
        properties: properties
    )
}

private func opened(_ url: String, _ result: String) -> ReportEvent {
    ReportEvent(
        type: "url_opened",
        timestamp: Date(timeIntervalSince1970: 1_767_225_600),
        sessionID: "s1",
        anonymousID: "anon",
        properties: ["url": .string(url), "result": .string(result)]
    )
}

@Suite("Per-action statistics")
struct ActionStatisticsTests {
    @Test("performed, failed, failure rate and arrival sources come from the hooks' events")
    func fromHooks() async throws {
        let testbed = try HookTestbed()
        await testbed.perform(HookShopFeature.viewProduct, 1)
        await testbed.perform(HookShopFeature.viewProduct, -1)
        _ = await testbed.system.open(url: URL(string: "shop://product/2")!)
        _ = await testbed.system.open(url: URL(string: "shop://prodcut/2")!)
        let type = try #require(testbed.publisher.current?.activityType)
        _ = await testbed.activityRouter.continue(
            activityType: type,
            userInfo: ["id": "3"],
            session: testbed.system.mainSession
        )
        await testbed.perform(HookShopFeature.pay, HookPayment(card: Redacted("1"), amount: 1, declines: false))

        let statistics = try ReportingStatistics(store: testbed.store)
        let view = try #require(statistics[action: "view_product"])
        #expect(view.performed == 4)
        #expect(view.failed == 1)
        #expect(view.cancelled == 0)
        #expect(view.failureRate == 0.25)
        #expect(view.arrivedFromApplication == 2)
        #expect(view.arrivedFromURL == 1)
        #expect(view.arrivedFromActivity == 1)
        #expect(view[arrivedFrom: .intent] == 0)
        #expect(view.medianDurationSeconds == 0)
        #expect(statistics[action: "pay"]?.performed == 1)
        #expect(statistics[action: "pay"]?.failureRate == 0)
        #expect(statistics.actions.map(\.analyticsID) == ["pay", "view_product"])
        #expect(statistics.actions.last?.actionName == "Hook View Product")

        #expect(statistics.arrivals.urlOpens == 2)
        #expect(statistics.arrivals.urlOpensByResult == ["performed": 1, "noMatch": 1])
        #expect(statistics.arrivals.brokenLinks == [BrokenLink(url: "shop://prodcut/2", result: "noMatch", opens: 1)])
        #expect(statistics.arrivals.activitiesPublished == 3)
        #expect(statistics.arrivals.activityContinuationsByResult == ["performed": 1])
        // The failure's error event is not content.
        #expect(statistics.contents.isEmpty)
        #expect(statistics.totals.errors == 0)
        #expect(statistics.malformedEventCount == 0)

        let table = statistics.description
        #expect(table.contains("Failure rate"))
        #expect(table.contains("Hook View Product (view_product)"))
        #expect(table.contains("broken: shop://prodcut/2 (noMatch, 1×)"))
    }

    @Test("p50 and p95 durations are within 1% of the exact nearest-rank values")
    func durationQuantiles() throws {
        // 1…1000 ms, shuffled deterministically: p50 = 500 ms, p95 = 950 ms.
        let durations = (1...1_000).map { Double(($0 * 389) % 1_000 + 1) / 1_000 }
        let statistics = ReportingStatistics(events: durations.map { ended("search", duration: $0) })
        let figures = try #require(statistics[action: "search"])
        let median = try #require(figures.medianDurationSeconds)
        let p95 = try #require(figures.p95DurationSeconds)
        #expect(abs(median - 0.5) / 0.5 <= 0.01)
        #expect(abs(p95 - 0.95) / 0.95 <= 0.01)

        // Orders of magnitude apart: 90 fast calls and 10 slow ones.
        let mixed = Array(repeating: 0.002, count: 90) + Array(repeating: 30.0, count: 10)
        let spread = try #require(
            ReportingStatistics(events: mixed.map { ended("sync", duration: $0) })[action: "sync"]
        )
        #expect(abs(try #require(spread.medianDurationSeconds) - 0.002) / 0.002 <= 0.01)
        #expect(abs(try #require(spread.p95DurationSeconds) - 30) / 30 <= 0.01)
    }

    @Test("rates and durations are nil when nothing was measured; bad values are ignored")
    func nothingMeasured() throws {
        let statistics = ReportingStatistics(events: [
            ended("a", outcome: "cancelled"),
            ended("a", duration: .infinity, source: "nonsense"),
            ended("a", duration: -1),
        ])
        let figures = try #require(statistics[action: "a"])
        #expect(figures.performed == 3)
        #expect(figures.cancelled == 1)
        #expect(figures.failureRate == 0)
        #expect(figures.medianDurationSeconds == nil)
        #expect(figures.p95DurationSeconds == nil)
        #expect(figures.arrivedFromApplication == 3)
        #expect(ReportingStatistics(events: []).actions.isEmpty)
        #expect(ReportingStatistics(events: [])[action: "a"] == nil)
    }

    @Test("broken links are listed most opened first, at most twenty")
    func brokenLinks() {
        var events = (0..<25).flatMap { index in
            Array(repeating: opened("shop://gone/\(index)", "noMatch"), count: index + 1)
        }
        events.append(opened("shop://product/x", "badParameter"))
        events.append(opened("shop://product/1", "performed"))
        events.append(opened("other://x", "unsupportedScope"))
        let arrivals = ReportingStatistics(events: events).arrivals
        #expect(arrivals.urlOpens == (1...25).reduce(0, +) + 3)
        #expect(arrivals.brokenLinkOpens == (1...25).reduce(0, +) + 1)
        #expect(arrivals.brokenLinks.count == ArrivalFigures.maxBrokenLinks)
        #expect(arrivals.brokenLinks.first == BrokenLink(url: "shop://gone/24", result: "noMatch", opens: 25))
        #expect(arrivals.urlOpensByResult["unsupportedScope"] == 1)
    }

    @Test("statistics survive a JSON round trip with the per-action figures")
    func codable() throws {
        let statistics = ReportingStatistics(events: [ended("a", duration: 0.1), opened("shop://x", "noMatch")])
        let decoded = try JSONDecoder().decode(ReportingStatistics.self, from: try JSONEncoder().encode(statistics))
        #expect(decoded == statistics)
    }
}
