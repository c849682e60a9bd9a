import ActuatePersonalizationTesting
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins
@testable import ActuateTesting

/// The example (in the DocC article "Content actions and the tracker", once the README's) of testing content handling
/// with ``SimulatedHTMLSurface``, as it is printed there.
@Suite("README: testing content with SimulatedHTMLSurface")
struct ReadmeSimulatedSurfaceTests {
    @Test("a banner's deep link and close are reported as the page's bridge reports them")
    func bannerClicks() throws {
        let banner = ContentAction(
            id: 201,
            contentType: "text/html",
            content: #"<a href="shop://product/p1">Today's pick</a> <button data-actuate-close="2">×</button>"#
        )
        let surface = SimulatedHTMLSurface()
        let clicks = Calls<ActionClicked>()
        let bridge = ContentBridge(routes: URLRouterConfiguration(appSchemes: ["shop"]))
        banner.render(on: surface, bridge: bridge) { clicks.record($0) }

        #expect(surface.links.map(\.href) == ["shop://product/p1"])
        try surface.clickLink(text: "Today's pick")
        try surface.close()
        #expect(clicks.recorded.map(\.href) == ["shop://product/p1", ""])
        #expect(clicks.recorded.map(\.status) == [.target, .close])
    }
}
