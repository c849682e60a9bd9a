import ActuatePersonalizationTesting
import ActuateReporting
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins
@testable import ActuateTesting

/// Content actions rendered for an app wired through ``ActuateSystem``: deep links are reported and open through
/// the system's router; a link nothing opens is a diagnostic.
@Suite("Content-action links: opened through the system's router, or a diagnostic")
struct ContentActionRoutingTests {
    static let content = """
        <a id="deep" href="shop://product/p1">Today's pick</a>
        <a id="universal" href="https://shop.example.com/product/p2" data-actuate-product="p2">Grinder</a>
        <a id="web" href="https://elsewhere.example.org/story">Story</a>
        <a id="lost" href="shop://nowhere">Lost</a>
        <a id="script" href="javascript:alert(1)">Script</a>
        <a id="data" href="data:text/html,x">Data</a>
        """

    /// Clicks received by the app.
    final class Clicks: Sendable {
        private let recorded = Mutex<[ActionClicked]>([])
        func append(_ clicked: ActionClicked) { recorded.withLock { $0.append(clicked) } }
        var all: [ActionClicked] { recorded.withLock { $0 } }
    }

    private func banner(_ fixture: TrackerFixture) -> ContentAction {
        ContentAction(
            id: 31,
            name: "Deep banner",
            contentType: "text/html",
            content: Self.content,
            tracker: fixture.tracker
        )
    }

    @Test("a shop:// link and a universal link reach the app and open through the router")
    func deepLinksOpenThroughRouter() async throws {
        let fixture = TrackerFixture()
        let shop = try DeepLinkShop()
        let clicks = Clicks()
        let surface = SimulatedHTMLSurface()
        banner(fixture).render(on: surface, system: shop.system) { clicks.append($0) }
        try surface.click(id: "deep")
        await fixture.tracker.waitForReports()
        try surface.clickLink(text: "Grinder")
        await fixture.tracker.waitForReports()
        #expect(clicks.all.map(\.href) == ["shop://product/p1", "https://shop.example.com/product/p2"])
        #expect(clicks.all.map(\.status) == [.target, .product])
        #expect(
            shop.openings.all == [
                "shop://product/p1 → performed: success",
                "https://shop.example.com/product/p2 → performed: success",
            ]
        )
        #expect(shop.routedInputs == ["p1", "p2"])
        #expect(try await fixture.eventTypes() == ["executed", "target", "product"])
        #expect(fixture.errors.all == [])
    }

    @Test("javascript: and data: links reach the app with an empty href, and nothing is opened")
    func scriptLinksNeverReachTheApp() async throws {
        let fixture = TrackerFixture()
        let shop = try DeepLinkShop()
        let clicks = Clicks()
        let surface = SimulatedHTMLSurface()
        banner(fixture).render(on: surface, system: shop.system) { clicks.append($0) }
        for id in ["script", "data"] { try surface.click(id: id) }
        await fixture.tracker.waitForReports()
        #expect(clicks.all.map(\.href) == ["", ""])
        #expect(shop.openings.all == [])
    }

    @Test("a link the router answers but cannot route, or that nothing takes, is reported as not opened")
    func unopenedLinksAreDiagnosed() async throws {
        let fixture = TrackerFixture()
        let shop = try DeepLinkShop()
        let surface = SimulatedHTMLSurface()
        banner(fixture).render(on: surface, system: shop.system)
        try surface.click(id: "lost")
        await fixture.tracker.waitForReports()
        try surface.click(id: "web")
        await fixture.tracker.waitForReports()
        #expect(
            fixture.errors.all == [
                .linkNotOpened(href: "shop://nowhere", reason: "the router could not open it (no match)"),
                .linkNotOpened(
                    href: "https://elsewhere.example.org/story",
                    reason: "the router does not answer its scheme or host and no clickedCallback takes the click"
                ),
            ]
        )
        #expect(fixture.tracker.lastError == fixture.errors.all.last)
    }

    @Test("rendered without a system and without a callback, a clicked link is a diagnostic, not silence")
    func noRouterNoCallback() async throws {
        let fixture = TrackerFixture()
        let surface = SimulatedHTMLSurface()
        banner(fixture).render(on: surface)
        try surface.click(id: "web")
        await fixture.tracker.waitForReports()
        #expect(
            fixture.errors.all == [
                .linkNotOpened(
                    href: "https://elsewhere.example.org/story",
                    reason: "no router is wired and no clickedCallback takes the click"
                )
            ]
        )
        // The standard bridge does not report the app's scheme: the deep link arrives without its href.
        let clicks = Clicks()
        banner(fixture).render(on: surface) { clicks.append($0) }
        try surface.click(id: "deep")
        await fixture.tracker.waitForReports()
        #expect(clicks.all.map(\.href) == [""])
    }
}
