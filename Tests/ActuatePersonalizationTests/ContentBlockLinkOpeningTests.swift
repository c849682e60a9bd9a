import ActuatePersonalizationTesting
import ActuateReporting
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins
@testable import ActuateTesting

/// Where a link clicked in a content block goes: the system's router, the app's opener, or, when nothing opens it,
/// a diagnostic.
@Suite("Content-block links: opened through the router, or a diagnostic")
struct ContentBlockLinkOpeningTests {
    static let html = """
        <a id="deep" href="shop://product/p1">Today's pick</a>
        <a id="universal" href="https://shop.example.com/product/p2">Grinder</a>
        <a id="web" href="https://elsewhere.example.org/story">Story</a>
        <a id="lost" href="shop://nowhere">Lost</a>
        <button data-actuate-close>×</button>
        """

    /// Problems the manager reports.
    final class Problems: Sendable {
        private let recorded = Mutex<[ContentBlockError]>([])
        func append(_ error: ContentBlockError) { recorded.withLock { $0.append(error) } }
        var all: [ContentBlockError] { recorded.withLock { $0 } }
    }

    /// A placeholder showing the block on a simulated surface, its manager configured by `configure`.
    private func showing(
        _ fixture: ContentBlockFixture,
        _ problems: Problems,
        configure: (ContentBlockConfiguration) -> ContentBlockConfiguration
    ) async -> (SimulatedHTMLSurface, ContentBlockManager, RecordingContentBlockCallback, ContentBlockPlaceholder) {
        var configuration = configure(fixture.configuration(allowedLinkSchemes: ["https"]))
        configuration.onError = { problems.append($0) }
        let manager = fixture.makeManager(
            ScriptedContentBlockSource([.test("links", html: Self.html)]),
            configuration: configuration
        )
        let surface = SimulatedHTMLSurface()
        let (placeholder, callback) = manager.deferredPlaceholder(surface: surface)
        await placeholder.reloadAndWait(manager)
        return (surface, manager, callback, placeholder)
    }

    @Test("routed through the system: deep and universal links open through its router, others go to the opener")
    func routedThroughSystem() async throws {
        let fixture = ContentBlockFixture()
        let shop = try DeepLinkShop()
        let problems = Problems()
        let (surface, manager, callback, placeholder) = await showing(fixture, problems) {
            $0.routed(through: shop.system)
        }
        for id in ["deep", "universal", "web"] { try surface.click(id: id) }
        await manager.waitUntilIdle()
        withExtendedLifetime(placeholder) {}
        // Each link is routed on a task of its own, so the openings may finish in any order.
        #expect(
            Set(shop.openings.all) == [
                "shop://product/p1 → performed: success",
                "https://shop.example.com/product/p2 → performed: success",
                "https://elsewhere.example.org/story → unsupported scope",
            ]
        )
        #expect(shop.routedInputs.sorted() == ["p1", "p2"])
        #expect(fixture.opener.opened == [URL(string: "https://elsewhere.example.org/story")!])
        #expect(problems.all == [])
        let clicked = callback.calls.compactMap { call -> String? in
            if case .actionClicked(_, _, let url, _) = call { return url }
            return nil
        }
        #expect(
            clicked == [
                "shop://product/p1", "https://shop.example.com/product/p2", "https://elsewhere.example.org/story",
            ]
        )
    }

    @Test("a deep link the router answers but cannot route is tracked and reported as not opened")
    func unroutableDeepLink() async throws {
        let fixture = ContentBlockFixture()
        let shop = try DeepLinkShop()
        let problems = Problems()
        let (surface, manager, _, placeholder) = await showing(fixture, problems) { $0.routed(through: shop.system) }
        try surface.click(id: "lost")
        await manager.waitUntilIdle()
        withExtendedLifetime(placeholder) {}
        #expect(try fixture.eventSummary().contains("target:links"))
        #expect(
            problems.all == [
                .linkNotOpened(url: "shop://nowhere", reason: "the router could not open it (no match)")
            ]
        )
        #expect(fixture.opener.opened == [])
    }

    @Test("with no router and no opener, a clicked link is tracked and the app gets a diagnostic, not silence")
    func nothingOpensTheLink() async throws {
        let fixture = ContentBlockFixture()
        let problems = Problems()
        let (surface, manager, _, placeholder) = await showing(fixture, problems) { configuration in
            var configuration = configuration
            configuration.urlOpener = nil
            return configuration
        }
        try surface.click(id: "web")
        await manager.waitUntilIdle()
        withExtendedLifetime(placeholder) {}
        #expect(try fixture.eventSummary().contains("target:links"))
        #expect(
            problems.all == [
                .linkNotOpened(
                    url: "https://elsewhere.example.org/story",
                    reason: "no router is wired and the configuration has no urlOpener"
                )
            ]
        )
        #expect(manager.lastError == problems.all.last)
    }

    @Test("without the system, a deep link is refused as an error: its scheme is not in the explicit list")
    func deepLinkRefusedWithoutSystem() async throws {
        let fixture = ContentBlockFixture()
        let problems = Problems()
        let (surface, manager, callback, placeholder) = await showing(fixture, problems) { $0 }
        try surface.click(id: "deep")
        await manager.waitUntilIdle()
        withExtendedLifetime(placeholder) {}
        let errors = callback.calls.compactMap { call -> String? in
            if case .error(_, _, let message) = call { return message }
            return nil
        }
        #expect(errors.count == 1)
        #expect(errors.first?.contains("the scheme \"shop\", which is not allowed") == true)
        #expect(fixture.opener.opened == [])
    }
}
