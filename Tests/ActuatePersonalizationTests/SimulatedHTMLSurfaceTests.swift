import ActuateReporting
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePersonalizationTesting
@testable import ActuatePlugins
@testable import ActuateTesting

@Suite("SimulatedHTMLSurface: clicks post what the bridge posts, with the page's token")
struct SimulatedHTMLSurfaceTests {
    static let bannerContent = """
        <p>Picked for you &amp; yours:</p>
        <a id="grinder" href="https://Shop.Example.com" data-actuate-product="p2"><span id="inner">Burr  grinder</span></a>
        <a id="relative" href="/sale">Sale</a>
        <a id="script" href="javascript:alert(1)">Script</a>
        <span id="plain">Just text</span>
        <br>
        <button id="close" data-actuate-close="2">×</button>
        """

    private func fields(_ message: String?) throws -> [String: String] {
        try JSONDecoder().decode([String: String].self, from: Data(try #require(message).utf8))
    }

    @Test("reads what was loaded: the document, its text, its links, the handler name and the token")
    func readsTheDocument() throws {
        let surface = SimulatedHTMLSurface()
        let action = ContentAction(id: 5, contentType: "text/html", content: Self.bannerContent)
        action.render(on: surface)
        let document = try #require(surface.document)
        #expect(surface.documents == [document])
        #expect(surface.bridgeName == "actuate")
        #expect(surface.text == "Picked for you & yours: Burr grinder Sale Script Just text ×")
        #expect(
            surface.links == [
                .init(id: "grinder", text: "Burr grinder", href: "https://Shop.Example.com"),
                .init(id: "relative", text: "Sale", href: "/sale"),
                .init(id: "script", text: "Script", href: "javascript:alert(1)"),
            ]
        )
        let token = try #require(surface.bridgeToken)
        #expect(token.count == 32)
        #expect(token == BridgeTokenReader.token(in: document))
    }

    @Test("it never navigates: clicking links, even javascript: and relative ones, leaves the loaded document")
    func neverNavigates() throws {
        let surface = SimulatedHTMLSurface()
        ContentAction(id: 5, contentType: "text/html", content: Self.bannerContent).render(on: surface)
        let document = try #require(surface.document)
        for id in ["grinder", "inner", "relative", "script", "close"] { try surface.click(id: id) }
        try surface.clickLink(text: "Sale")
        #expect(surface.documents == [document])
        #expect(surface.links.map(\.href) == ["https://Shop.Example.com", "/sale", "javascript:alert(1)"])
    }

    @Test("a content action's clicks: the nearest mark wins, links resolve as a browser's, close carries its count")
    func contentActionClicks() async throws {
        let fixture = TrackerFixture()
        let surface = SimulatedHTMLSurface()
        let clicks = ContentActionRoutingTests.Clicks()
        ContentAction(
            id: 5,
            name: "Banner",
            contentType: "text/html",
            content: Self.bannerContent,
            tracker: fixture.tracker
        )
        .render(on: surface) { clicks.append($0) }
        let token = try #require(surface.bridgeToken)
        #expect(
            try fields(try surface.click(id: "inner"))
                == ["status": "product", "href": "https://shop.example.com/", "arg": "p2", "token": token]
        )
        #expect(
            try fields(try surface.clickLink(text: "Sale")) == [
                "status": "target", "href": "", "arg": "", "token": token,
            ]
        )
        #expect(try fields(try surface.click(id: "script"))["href"] == "")
        #expect(try surface.click(id: "plain") == nil)
        #expect(try fields(try surface.close()) == ["status": "close", "href": "", "arg": "2", "token": token])
        await fixture.tracker.waitForReports()
        #expect(clicks.all.map(\.status) == [.product, .target, .target, .close])
        #expect(try await fixture.eventTypes() == ["executed", "product", "target", "close"])
    }

    @Test("a message a script of the page posts itself, without the token, is refused as an error")
    func rawPostIsForged() async throws {
        let fixture = TrackerFixture()
        let surface = SimulatedHTMLSurface()
        ContentAction.banner(tracker: fixture.tracker).render(on: surface)
        surface.post(#"{"status":"close","href":"","arg":"0"}"#)
        #expect(try await fixture.eventTypes() == ["executed", "error"])
    }

    @Test("clicks that cannot be made say why")
    func failures() throws {
        let surface = SimulatedHTMLSurface(loadResult: nil)
        #expect(throws: SimulatedHTMLSurface.Failure.nothingLoaded) { try surface.close() }
        ContentAction.banner().render(on: surface)
        #expect(throws: SimulatedHTMLSurface.Failure.notLoaded) { try surface.clickLink(text: "Spring sale") }
        surface.finishLoad()
        #expect(throws: SimulatedHTMLSurface.Failure.noElement(id: "missing")) { try surface.click(id: "missing") }
        #expect(throws: SimulatedHTMLSurface.Failure.noLink(text: "Autumn")) { try surface.clickLink(text: "Autumn") }
        #expect(throws: SimulatedHTMLSurface.Failure.noCloseElement) { try surface.close() }
        #expect(try surface.clickLink(text: "Spring sale") != nil)
        surface.load(html: "<p>no bridge</p>", bridgeName: "x", onMessage: { _ in }, completion: { _ in })
        surface.finishLoad()
        #expect(throws: SimulatedHTMLSurface.Failure.noBridge) { try surface.close() }
    }

    @Test("a content block's clicks: a link posts its URL and text, close moves on to the next block")
    func contentBlockClicks() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(
            ScriptedContentBlockSource([
                .test(
                    "first",
                    priority: 2,
                    html: "<a href=\"shop://product/p1\"> <b>Today's</b> pick </a><i data-actuate-close>×</i>"
                ),
                .test("second", priority: 1),
            ])
        )
        let surface = SimulatedHTMLSurface()
        let (placeholder, callback) = manager.deferredPlaceholder(surface: surface)
        await placeholder.reloadAndWait(manager)
        let token = try #require(surface.bridgeToken)
        #expect(surface.bridgeName == "actuateContentBlock")
        #expect(
            try fields(try surface.clickLink(text: "Today's pick"))
                == ["action": "click", "link": "shop://product/p1", "text": "Today's pick", "token": token]
        )
        #expect(try fields(try surface.close()) == ["action": "close", "token": token])
        await manager.waitUntilIdle()
        #expect(
            callback.calls == [
                .shown("home", blockID: "first"),
                .actionClicked("home", blockID: "first", url: "shop://product/p1", text: "Today's pick"),
                .closeClicked("home", blockID: "first"),
                .shown("home", blockID: "second"),
            ]
        )
        #expect(fixture.opener.opened == [URL(string: "shop://product/p1")!])
        #expect(surface.documents.count == 2)
        #expect(surface.bridgeToken != token, "each document has a token of its own")
        withExtendedLifetime(placeholder) {}
    }
}
