import ActuateReporting
import ActuateTesting
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins

@Suite("Tracker: reporting content")
struct TrackerReportingTests {
    @Test("each report method records its status for the action through the reporting plugin")
    func reportMethods() async throws {
        let fixture = TrackerFixture()
        let action = ContentAction.banner(tracker: fixture.tracker)
        #expect(action.reportExecuted() == .sent)
        #expect(action.reportClick() == .sent)
        #expect(action.reportProductClick(productID: "sku-1") == .sent)
        #expect(action.reportArticleClick(articleID: "a-1") == .sent)
        #expect(action.reportError(message: "image missing") == .sent)
        #expect(action.reportClose(dontShowSessions: -3) == .sent)
        let events = try await fixture.events()
        #expect(events.map(\.type) == ["executed", "target", "product", "article", "error", "close"])
        for event in events {
            #expect(event.contentReference == .contentAction(id: 7, name: "Spring banner"))
            #expect(event.properties["outcome"] == "success")
            #expect(event.properties["feature"] == "PersonalizationFeature")
        }
        #expect(events[2].properties["productId"] == "sku-1")
        #expect(events[3].properties["articleId"] == "a-1")
        #expect(events[4].properties["message"] == "image missing")
        #expect(events[5].properties["dontShowSessions"] == 0, "negative session counts become 0")
        let statistics = ReportingStatistics(events: try fixture.store.fetch(count: 100, maxBytes: .max))
        let figures = try #require(statistics[.contentAction(id: 7)])
        #expect(figures.impressions == 1)
        #expect(figures.clicks == 1)
        #expect(figures.closes == 1)
        #expect(figures.productClicks == 1)
        #expect(figures.clickThroughRate == 1)
    }

    @Test("reports appear in the timeline, action stacks and analytics with the content id and status")
    func timelineAndAnalytics() async throws {
        let fixture = TrackerFixture()
        let analytics = RecordingAnalyticsProvider()
        let stacks = ActionStacksPlugin()
        fixture.harness.dispatcher.add(plugin: AnalyticsPlugin(provider: analytics))
        fixture.harness.dispatcher.add(plugin: stacks)
        ContentAction.banner(tracker: fixture.tracker).reportClick()
        await fixture.tracker.waitForReports()
        let stack = try #require(stacks.openStack(session: "test", feature: PersonalizationFeature.identifier))
        #expect(stack.entries.map(\.actionName) == ["Click Content"])
        #expect(stack.entries.first?.inputDescription == #"action:7 "Spring banner" target"#)
        let entry = try #require(fixture.harness.timeline.snapshot().first)
        #expect(entry.actionName == "Click Content")
        #expect(entry.inputDescription == #"action:7 "Spring banner" target"#)
        let event = try #require(analytics.events.first)
        #expect(event.analyticsID == "content_target")
        #expect(event.attributes["contentId"] == "7")
        #expect(event.attributes["status"] == "target")
    }

    @Test("a status is reported once per action and page view; executed not after another status")
    func duplicates() async throws {
        let fixture = TrackerFixture()
        let action = ContentAction.banner(tracker: fixture.tracker)
        let other = ContentAction.banner(id: 8, name: "Other", tracker: fixture.tracker)
        #expect(action.reportClick() == .sent)
        #expect(action.reportClick() == .duplicate)
        #expect(action.reportExecuted() == .duplicate)
        #expect(other.reportClick() == .sent)
        #expect(action.reportProductClick(productID: "sku-1") == .sent)
        #expect(action.reportProductClick(productID: "sku-1") == .duplicate)
        try fixture.tracker.navigate(documentName: "cart")
        #expect(action.reportExecuted() == .sent)
        #expect(action.reportClick() == .sent)
        #expect(try await fixture.eventTypes() == ["target", "target", "product", "behaviour", "executed", "target"])
    }

    /// Personyze counts every product and article click of a page view: its duplicate rule is about the same
    /// report sent twice, and a banner listing three products can be clicked on each.
    @Test(
        "clicks on two products or two articles of one action in one page view both count; the same one twice does not"
    )
    func productAndArticleClicksPerArgument() async throws {
        let fixture = TrackerFixture()
        let action = ContentAction.banner(tracker: fixture.tracker)
        #expect(action.reportProductClick(productID: "sku-1") == .sent)
        #expect(action.reportProductClick(productID: "sku-2") == .sent)
        #expect(action.reportProductClick(productID: "sku-1") == .duplicate)
        #expect(action.reportArticleClick(articleID: "a-1") == .sent)
        #expect(action.reportArticleClick(articleID: "a-2") == .sent)
        #expect(action.reportArticleClick(articleID: "a-2") == .duplicate)
        let events = try await fixture.events()
        #expect(events.map(\.type) == ["product", "product", "article", "article"])
        #expect(
            events.map { $0.properties["productId"] ?? $0.properties["articleId"] } == ["sku-1", "sku-2", "a-1", "a-2"]
        )
        let statistics = ReportingStatistics(events: try fixture.store.fetch(count: 100, maxBytes: .max))
        #expect(statistics[.contentAction(id: 7)]?.productClicks == 2)
        #expect(statistics[.contentAction(id: 7)]?.articleClicks == 2)
    }

    @Test("reportActionClicked reports each kind, names the action from the cache, and refuses bad arguments")
    func reportActionClicked() async throws {
        let source = ScriptedDecisionSource(answers: [.result(TrackerResult(actions: [.banner()]))])
        let fixture = TrackerFixture(source: source)
        _ = try await fixture.tracker.getResult()
        let tracker = fixture.tracker
        #expect(
            tracker.reportActionClicked(ActionClicked(actionID: 7, status: .close, arg: "soon"))
                == .invalid(reason: "Invalid argument \"soon\" for content status close: not a whole number.")
        )
        #expect(
            tracker.reportActionClicked(ActionClicked(actionID: 7, status: .product, arg: ""))
                == .invalid(reason: "Invalid argument \"\" for content status product: the product id is empty.")
        )
        #expect(
            tracker.reportActionClicked(ActionClicked(actionID: 7, href: "https://x.example/", status: .target))
                == .sent
        )
        #expect(tracker.reportActionClicked(ActionClicked(actionID: 7, status: .article, arg: "a-1")) == .sent)
        #expect(tracker.reportActionClicked(ActionClicked(actionID: 7, status: .close, arg: "3")) == .sent)
        #expect(tracker.reportActionClicked(ActionClicked(actionID: 99, status: .target)) == .sent)
        let events = try await fixture.events()
        #expect(events.map(\.type) == ["target", "article", "close", "target"])
        #expect(events[0].properties["href"] == "https://x.example/")
        #expect(events[0].properties["actionName"] == "Spring banner")
        #expect(events[2].properties["dontShowSessions"] == 3)
        #expect(events[3].contentReference == .contentAction(id: 99))
    }

    @Test("empty product and article ids are refused and not recorded")
    func invalidIDs() async throws {
        let fixture = TrackerFixture()
        let action = ContentAction.banner(tracker: fixture.tracker)
        #expect(action.reportProductClick(productID: " ") == .invalid(reason: "the product id is empty"))
        #expect(action.reportArticleClick(articleID: "") == .invalid(reason: "the article id is empty"))
        #expect(try await fixture.eventTypes() == [])
    }

    @Test("reports never go anywhere while consent is denied, like every reporting event")
    func consent() async throws {
        let fixture = TrackerFixture()
        fixture.reporter.setTrackingConsent(.denied)
        ContentAction.banner(tracker: fixture.tracker).reportExecuted()
        #expect(try await fixture.eventTypes() == [])
        #expect(fixture.reporter.suppressedEventCount >= 1)
    }
}
