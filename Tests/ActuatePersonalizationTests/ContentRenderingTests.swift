import ActuatePersonalizationTesting
import ActuateReporting
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins
@testable import ActuateTesting

@Suite("Rendering content onto an HTMLSurface")
struct ContentRenderingTests {
    /// Collects the clicks a render hands to its callback.
    final class Clicks: Sendable {
        private let clicks = Mutex<[ActionClicked]>([])
        func append(_ click: ActionClicked) { clicks.withLock { $0.append(click) } }
        var all: [ActionClicked] { clicks.withLock { $0 } }
    }

    @Test("render loads contentHtmlDoc under the bridge's name and reports executed only once loaded")
    func executedAfterLoad() async throws {
        let fixture = TrackerFixture()
        let surface = RecordingHTMLSurface()
        let action = ContentAction.banner(tracker: fixture.tracker)
        action.render(on: surface)
        let loaded = try #require(surface.loadedDocuments.first)
        let reference = try #require(action.contentHtmlDoc)
        let token = try #require(BridgeTokenReader.token(in: loaded))
        let otherToken = try #require(BridgeTokenReader.token(in: reference))
        #expect(surface.loadedDocuments.count == 1)
        #expect(token != otherToken, "each document has a token of its own")
        #expect(loaded == reference.replacingOccurrences(of: otherToken, with: token))
        #expect(try await fixture.eventTypes() == [])
        surface.finishLoad()
        let events = try await fixture.events()
        #expect(events.map(\.type) == ["executed"])
        #expect(events.first?.contentReference == .contentAction(id: 7, name: "Spring banner"))
    }

    @Test("rendering twice in one page view reports executed once; after a navigate, again")
    func executedOncePerPageView() async throws {
        let fixture = TrackerFixture()
        let surface = RecordingHTMLSurface()
        let action = ContentAction.banner(tracker: fixture.tracker)
        action.render(on: surface)
        surface.finishLoad()
        action.render(on: surface)
        surface.finishLoad()
        #expect(try await fixture.eventTypes() == ["executed"])
        try fixture.tracker.navigate(documentName: "home")
        action.render(on: surface)
        surface.finishLoad()
        #expect(try await fixture.eventTypes() == ["executed", "behaviour", "executed"])
    }

    @Test("a failed load is an error event, not an impression")
    func failedLoad() async throws {
        let fixture = TrackerFixture()
        let surface = RecordingHTMLSurface()
        ContentAction.banner(tracker: fixture.tracker).render(on: surface)
        surface.finishLoad(.failed(message: "out of memory"))
        let events = try await fixture.events()
        #expect(events.map(\.type) == ["error"])
        #expect(events.first?.properties["message"] == "The content did not load: out of memory")
    }

    @Test("bridge clicks reach the callback and are reported through the dispatcher")
    func clicks() async throws {
        let fixture = TrackerFixture()
        let surface = SimulatedHTMLSurface()
        let clicks = Clicks()
        let banner = ContentAction(
            id: 7,
            name: "Spring banner",
            contentType: "text/html",
            content: """
                <a href="https://shop.example.com/p/1" data-actuate-product="sku-1">Grinder</a>
                <a href="https://shop.example.com/spring">Spring sale</a>
                <button data-actuate-close="2">×</button>
                """,
            tracker: fixture.tracker
        )
        banner.render(on: surface) { clicks.append($0) }
        try surface.clickLink(text: "Grinder")
        try surface.clickLink(text: "Spring sale")
        try surface.close()
        #expect(
            clicks.all == [
                ActionClicked(actionID: 7, href: "https://shop.example.com/p/1", status: .product, arg: "sku-1"),
                ActionClicked(actionID: 7, href: "https://shop.example.com/spring", status: .target),
                ActionClicked(actionID: 7, status: .close, arg: "2"),
            ]
        )
        let events = try await fixture.events()
        #expect(events.map(\.type) == ["executed", "product", "target", "close"])
        #expect(events[1].properties["productId"] == "sku-1")
        #expect(events[2].properties["href"] == "https://shop.example.com/spring")
        #expect(events[3].properties["dontShowSessions"] == 2)
        // Closed for 2 sessions, counting this one: 1 more after it.
        #expect(fixture.tracker.hiddenSessionsRemaining(actionID: 7) == 1)
        let timeline = fixture.harness.timeline.snapshot()
        #expect(
            timeline.map(\.actionName) == ["Show Content", "Click Content Product", "Click Content", "Close Content"]
        )
        #expect(timeline.allSatisfy { $0.featureName == "Personalization" })
        #expect(timeline[1].inputDescription == #"action:7 "Spring banner" product sku-1"#)
    }

    /// Personyze's own sample reports each click from the click callback. With `render(on:)` the bridge has
    /// reported it already, so the app's call answers `.duplicate` and the click is counted once.
    @Test("reportActionClicked from the click callback of render(on:) returns .duplicate; the click counts once")
    func callbackReportIsADuplicate() async throws {
        let fixture = TrackerFixture()
        let surface = RecordingHTMLSurface()
        let answers = Answers()
        let tracker = fixture.tracker
        ContentAction.banner(tracker: tracker).render(on: surface) { answers.append(tracker.reportActionClicked($0)) }
        surface.finishLoad()
        surface.postFromBridge(#"{"status":"target","href":"https://shop.example.com/spring","arg":""}"#)
        surface.postFromBridge(#"{"status":"product","href":"","arg":"sku-1"}"#)
        #expect(answers.all == [.duplicate, .duplicate])
        let events = try await fixture.events()
        #expect(events.map(\.type) == ["executed", "target", "product"])
    }

    @Test("malformed and early messages are error events and never reach the callback")
    func malformedMessages() async throws {
        let fixture = TrackerFixture()
        let surface = RecordingHTMLSurface()
        let clicks = Clicks()
        ContentAction.banner(tracker: fixture.tracker).render(on: surface) { clicks.append($0) }
        surface.postFromBridge(#"{"status":"target","href":"","arg":""}"#)
        surface.finishLoad()
        surface.postFromBridge(#"{"status":"hijack","href":"","arg":""}"#)
        surface.postFromBridge(#"{"status":"target","href":"javascript:steal()","arg":""}"#)
        #expect(clicks.all.isEmpty)
        let events = try await fixture.events()
        #expect(events.map(\.type) == ["error", "executed"], "one error per page view; the rest are duplicates")
        #expect(events[0].properties["message"] == .string(BridgeMessageError.beforeLoad.description))
    }

    @Test("a malformed message after load is reported with its reason")
    func unknownStatusReason() async throws {
        let fixture = TrackerFixture()
        let surface = RecordingHTMLSurface()
        ContentAction.banner(tracker: fixture.tracker).render(on: surface)
        surface.finishLoad()
        surface.postFromBridge(#"{"status":"hijack","href":"","arg":""}"#)
        let events = try await fixture.events()
        #expect(events.map(\.type) == ["executed", "error"])
        #expect(events[1].properties["message"] == .string(BridgeMessageError.unknownStatus("hijack").description))
    }

    @Test("a message without the document's token, or with another render's, is an error and never a click")
    func forgedMessages() async throws {
        let fixture = TrackerFixture()
        let surface = RecordingHTMLSurface()
        let other = RecordingHTMLSurface()
        let clicks = Clicks()
        let action = ContentAction.banner(tracker: fixture.tracker)
        action.render(on: other)
        action.render(on: surface) { clicks.append($0) }
        surface.finishLoad()
        let token = try #require(surface.latestToken)
        let otherToken = try #require(other.latestToken)
        #expect(token != otherToken, "two renders must not share a token")
        let click = #"{"status":"product","href":"https://shop.example.com/p/1","arg":"sku-1"}"#
        surface.post(click)
        surface.post(BridgeTokenReader.signed(click, token: otherToken))
        surface.post(BridgeTokenReader.signed(click, token: String(repeating: "0", count: 32)))
        #expect(clicks.all.isEmpty)
        var events = try await fixture.events()
        #expect(events.map(\.type) == ["executed", "error"], "one error per page view; the rest are duplicates")
        #expect(events.last?.properties["message"] == .string(BridgeMessageError.forged.description))
        surface.post(BridgeTokenReader.signed(click, token: token))
        #expect(
            clicks.all == [
                ActionClicked(actionID: 7, href: "https://shop.example.com/p/1", status: .product, arg: "sku-1")
            ]
        )
        events = try await fixture.events()
        #expect(events.map(\.type) == ["executed", "error", "product"])
    }

    @Test("content that is not HTML is not loaded; an error is reported")
    func notHTML() async throws {
        let fixture = TrackerFixture()
        let surface = RecordingHTMLSurface()
        ContentAction(id: 3, contentType: "application/json", content: "[]", tracker: fixture.tracker).render(
            on: surface
        )
        #expect(surface.loadedDocuments.isEmpty)
        let events = try await fixture.events()
        #expect(events.map(\.type) == ["error"])
        #expect(events.first?.properties["message"] == "Content of type application/json cannot be rendered as HTML.")
    }

    @Test("content without a tracker renders and hands clicks over, recording nothing")
    func withoutTracker() async throws {
        let surface = RecordingHTMLSurface()
        let clicks = Clicks()
        ContentAction.banner().render(on: surface) { clicks.append($0) }
        surface.finishLoad()
        surface.postFromBridge(#"{"status":"target","href":"","arg":""}"#)
        #expect(clicks.all == [ActionClicked(actionID: 7, status: .target)])
        #expect(ContentAction.banner().reportExecuted() == .noTracker)
    }
}

/// What the click callback got back from the tracker, in order.
private final class Answers: Sendable {
    private let answers = Mutex<[ContentReportResult]>([])
    var all: [ContentReportResult] { answers.withLock { $0 } }
    func append(_ answer: ContentReportResult) { answers.withLock { $0.append(answer) } }
}
