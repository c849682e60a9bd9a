import Actuate
import Foundation
import Synchronization
import Testing

@testable import ActuatePersonalization
@testable import ActuateReporting

// The "Content blocks" snippets (the ActuatePersonalization DocC article, once the README's), copied here verbatim so
// that they compile; the tests below run them against the test fixture.

struct HideWhenEmptyCallback: ContentBlockCallback {
    let original: any ContentBlockCallback
    let setHidden: @Sendable (Bool) -> Void

    func onMessageShown(placeholderID: String, contentBlock: ContentBlock) {
        original.onMessageShown(placeholderID: placeholderID, contentBlock: contentBlock)
        setHidden(false)
    }
    func onNoMessageFound(placeholderID: String) { setHidden(true) }
    func onError(placeholderID: String, contentBlock: ContentBlock?, errorMessage: String) {
        original.onError(placeholderID: placeholderID, contentBlock: contentBlock, errorMessage: errorMessage)
        setHidden(true)
    }
    func onCloseClicked(placeholderID: String, contentBlock: ContentBlock) {
        original.onCloseClicked(placeholderID: placeholderID, contentBlock: contentBlock)
    }
    func onLinkClicked(placeholderID: String, contentBlock: ContentBlock, link: ContentBlockLink) {
        original.onLinkClicked(placeholderID: placeholderID, contentBlock: contentBlock, link: link)
    }
}

@Suite("README: Content blocks")
struct ReadmeContentBlocksTests {
    /// The README's rules-file example.
    static let rulesExample = #"""
        { "contentBlocks": [
          { "id": "welcome", "name": "Welcome", "placeholders": ["home"], "priority": 10, "frequency": "onlyOnce",
            "variant": { "id": "b", "name": "Bold" }, "version": 2,
            "html": "<img src=\"https://cdn.example.com/welcome.png\"><a href=\"shop://product/p1\">Today's pick</a><button data-actuate-close>×</button>" }
        ]}
        """#

    /// The first snippet.
    static func setUpSnippet(
        rulesURL: URL,
        reporter: Reporter,
        supportDirectory: URL,
        opener: any ContentBlockURLOpener,
        homeView: any HTMLSurface,
        carouselView: any HTMLSurface,
        setHomeHeight: @escaping @Sendable (Double) -> Void
    ) throws -> (ContentBlockManager, ContentBlockPlaceholder, ContentBlockPlaceholder) {
        let manager = ContentBlockManager(
            source: try LocalContentBlockSource(contentsOf: rulesURL),  // refuses a bad file here, with JSON paths
            reporter: reporter,  // consent, visits (reporting sessions), identity
            directory: supportDirectory.appendingPathComponent("content-blocks"),  // display history, cached assets
            configuration: ContentBlockConfiguration(urlOpener: opener, allowedLinkSchemes: ["https", "shop"])
        )
        manager.prefetchPlaceholders(ids: ["home", "home-carousel"])  // at start-up; again after identify and reset

        let home = ContentBlockPlaceholder(
            placeholderID: "home",
            deferredLoad: true,
            manager: manager,
            surface: homeView
        )
        home.contentReadyCompletion = { loaded in
            setHomeHeight(loaded ? home.contentSize?.height ?? 0 : 0)  // false: no block applies, or it failed
        }
        home.reload()

        let carousel = ContentBlockPlaceholder(
            placeholderID: "home-carousel",
            manager: manager,
            surface: carouselView,
            carousel: ContentBlockCarousel(maxCount: 3)  // a new block every 3 s on the configuration's clock
        )
        return (manager, home, carousel)
    }

    /// The callback snippet's last line.
    static func wrapSnippet(home: ContentBlockPlaceholder, setHomeHidden: @escaping @Sendable (Bool) -> Void) {
        home.behaviourCallback = HideWhenEmptyCallback(original: home.behaviourCallback, setHidden: setHomeHidden)
    }

    /// The custom-view, manual-tracking and rows snippet.
    static func customSnippet(
        home: ContentBlockPlaceholder,
        manager: ContentBlockManager,
        block: ContentBlock,
        indexPath: IndexPath,
        cellView: any HTMLSurface,
        reloadRow: @escaping @Sendable (ContentBlockRow) -> Void
    ) -> (ContentBlockPlaceholder, Double) {
        home.invokeLinkClick(linkURL: "shop://product/p1")  // a button in a view that draws the block itself
        manager.trackClickWithoutTrackingConsent(  // also trackShow…, trackClose…, trackError…
            placeholderID: "home",
            contentBlock: block,
            link: ContentBlockLink(url: "shop://product/p1", text: "Today's pick")
        )

        manager.refreshCallback = { row in reloadRow(row) }  // the row's content or height changed
        let row = ContentBlockRow(placeholderID: "feed", indexPath: indexPath)
        let cellPlaceholder = manager.preparePlaceholder(for: row, surface: cellView)  // the same one on every call
        let rowHeight = manager.usedContentBlock(for: row)?.size?.height ?? 0
        return (cellPlaceholder, rowHeight)
    }

    @Test("The rules example is valid")
    func rulesExampleIsValid() throws {
        #expect(ContentBlockRules.validate(data: Data(Self.rulesExample.utf8)).isEmpty)
        let rules = try ContentBlockRules(data: Data(Self.rulesExample.utf8), name: "README")
        #expect(rules.blocks.first?.frequency == .onlyOnce)
    }

    @Test("The README's snippets do what the README says")
    func snippetsRun() async throws {
        let fixture = ContentBlockFixture()
        let block = ContentBlock.test("hero", placeholders: ["home", "feed"])
        let manager = fixture.makeManager(ScriptedContentBlockSource([block]))
        let home = ContentBlockPlaceholder(
            placeholderID: "home",
            deferredLoad: true,
            manager: manager,
            surface: InstantHTMLSurface()
        )
        let hidden = Mutex<[Bool]>([])
        Self.wrapSnippet(home: home) { value in hidden.withLock { $0.append(value) } }
        await home.reloadAndWait(manager)
        #expect(hidden.withLock { $0 } == [false])

        fixture.reporter.setTrackingConsent(.denied)
        let refreshed = Mutex<[ContentBlockRow]>([])
        let (cell, _) = Self.customSnippet(
            home: home,
            manager: manager,
            block: block,
            indexPath: IndexPath(indexes: [0, 2]),
            cellView: InstantHTMLSurface(),
            reloadRow: { row in refreshed.withLock { $0.append(row) } }
        )
        await manager.waitUntilIdle()
        #expect(cell.contentBlock?.id == "hero")
        #expect(refreshed.withLock { $0 } == [ContentBlockRow(placeholderID: "feed", rowID: "0-2")])
        #expect(
            manager.usedContentBlock(for: ContentBlockRow(placeholderID: "feed", rowID: "0-2"))?.size?.height == 120
        )
        // Withdrawing consent purged the earlier show; of the rest, only the forced click is stored.
        let events = try fixture.blockEvents()
        #expect(events.map(\.type) == ["target"])
        #expect(events.last?.isTrackingForced == true)
    }
}
