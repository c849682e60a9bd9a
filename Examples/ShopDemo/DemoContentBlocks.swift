import Actuate
import ActuatePersonalization
import ActuatePersonalizationTesting
import ActuateReporting
import ActuateTesting
import Foundation
import Synchronization

/// The content-block part of the demo: a home placeholder and a carousel placeholder filled from embedded
/// rules, the events they produce, and an `onlyOnce` welcome block that is gone on the next run because the
/// display history is kept in a directory that outlives the run.
enum DemoContentBlocks {
    /// The embedded rules: the `contentBlocks` array of a rules file.
    static let rules = #"""
        {
          "contentBlocks": [
            { "id": "welcome", "name": "Welcome", "placeholders": ["home"], "priority": 10, "frequency": "onlyOnce",
              "html": "<h2>Welcome to the shop!</h2><a href=\"shop://product/p1\">See the espresso machine</a><button data-actuate-close>×</button>" },
            { "id": "spring-sale", "name": "Spring sale", "placeholders": ["home"], "priority": 5,
              "variant": { "id": "b", "name": "Bold headline" },
              "html": "<h2>SPRING SALE: 20% OFF</h2><a href=\"https://shop.example.com/product/p4\">Tampers on sale</a><button data-actuate-close>×</button>" },
            { "id": "shoes", "name": "Trail shoes", "placeholders": ["home-carousel"], "priority": 3,
              "html": "<p>Trail shoes for every path</p>" },
            { "id": "jackets", "name": "Rain jackets", "placeholders": ["home-carousel"], "priority": 2,
              "html": "<p>Rain jackets, dry in any weather</p>" },
            { "id": "bags", "name": "Day bags", "placeholders": ["home-carousel"], "priority": 2,
              "html": "<p>Day bags that carry it all</p>" }
          ]
        }
        """#

    /// Where the display history lives between runs.
    static let dataDirectory = FileManager.default.temporaryDirectory
        .appendingPathComponent("shop-demo-data/content-blocks")

    /// Runs the content-block part.
    /// - Parameters:
    ///   - reporting: The demo's reporting pipeline.
    ///   - system: The demo's system, whose router opens the links users click.
    ///   - historyDirectory: Where the display history is kept; ``dataDirectory`` outlives the run.
    static func run(reporting: DemoReporting, system: ActuateSystem, historyDirectory: URL = dataDirectory) async throws
    {
        print("\n7. Content blocks: a home placeholder and a carousel, with their events")
        let opener = DemoURLOpener()
        let manager = ContentBlockManager(
            source: try LocalContentBlockSource(data: Data(rules.utf8), name: "embedded demo rules"),
            reporter: reporting.reporter,
            directory: historyDirectory,
            // Wired through the system: `shop://` links are accepted, and links the router answers open there.
            configuration: ContentBlockConfiguration(
                urlOpener: opener,
                carouselInterval: .milliseconds(200),
                onError: { problem in print("   ⚠️ \(problem)") }
            ).routed(through: system)
        )
        print("   Display history: \(historyDirectory.path) (delete it to start over)")
        manager.prefetchPlaceholders(ids: ["home", "home-carousel"])
        await manager.waitUntilIdle()

        let surface = SimulatedHTMLSurface { surface in print("     ┃ [home] \(surface.text)") }
        let home = ContentBlockPlaceholder(
            placeholderID: "home",
            deferredLoad: true,
            manager: manager,
            surface: surface
        )
        let shown = DemoShownBlocks(original: home.behaviourCallback)
        home.behaviourCallback = shown
        home.contentReadyCompletion = { ready in
            print(ready ? "   ✅ home is ready at \(describe(home.contentSize))" : "   ⬜️ home has nothing to show")
        }
        await home.reloadAndWait(manager)
        if home.contentBlock?.id == "welcome" {
            print("   First run: the onlyOnce welcome block is shown. Run the demo again and it is gone.")
            try surface.clickLink(text: "See the espresso machine")
            await manager.waitUntilIdle()
            print("   The user closes it, and the next block takes its place:")
            try surface.close()
            await manager.waitUntilIdle()
        } else {
            print("   The onlyOnce welcome block was shown on an earlier run, so it is gone now.")
        }
        if home.contentBlock?.id == "spring-sale" {
            try surface.clickLink(text: "Tampers on sale")
            await manager.waitUntilIdle()
            try surface.close()
            await manager.waitUntilIdle()
        }
        if let url = opener.take() {
            print("   🔗 a link the router does not answer goes to the app's opener: \(url)")
        }

        let carouselSurface = SimulatedHTMLSurface { surface in print("     ┃ [carousel] \(surface.text)") }
        let carousel = ContentBlockPlaceholder(
            placeholderID: "home-carousel",
            deferredLoad: true,
            manager: manager,
            surface: carouselSurface,
            carousel: ContentBlockCarousel(maxCount: 3)
        )
        let rotation = DemoShownBlocks(original: carousel.behaviourCallback)
        carousel.behaviourCallback = rotation
        carousel.reload()
        await rotation.waitForShows(4)
        carousel.stop()
        await manager.waitUntilIdle()

        try printEvents(reporting)
    }

    private static func printEvents(_ reporting: DemoReporting) throws {
        let events = try reporting.store.fetch(count: 10_000, maxBytes: Int.max / 2).filter {
            $0.properties[ReportEventKey.contentSource]?.stringValue == ContentSource.contentBlock.rawValue
        }
        print("   The events they produced, through the Reporter:")
        for event in events {
            let block = event.properties[ReportEventKey.actionID]?.stringValue ?? "?"
            let placeholder = event.properties[ContentBlockEventKey.placeholder]?.stringValue ?? "?"
            var details = ""
            if let href = event.properties[ReportEventKey.href]?.stringValue { details += " link=\(href)" }
            if let text = event.properties[ContentBlockEventKey.text]?.stringValue { details += " text=\"\(text)\"" }
            if let interaction = event.properties[ContentBlockEventKey.interaction]?.boolValue {
                details += " interaction=\(interaction)"
            }
            if let variant = event.properties[ContentBlockEventKey.variantName]?.stringValue {
                details += " variant=\"\(variant)\""
            }
            print(
                "     \(event.type.padding(toLength: 8, withPad: " ", startingAt: 0)) \(block) in \(placeholder)\(details)"
            )
        }
        let statistics = try ReportingStatistics(store: reporting.store)
        for id in ["welcome", "spring-sale", "shoes"] {
            guard let figures = statistics[.contentBlock(id: id)] else { continue }
            print(
                "   \(id): \(figures.impressions) impression(s), \(figures.clicks) click(s), \(figures.closes) close(s)"
            )
        }
    }

    private static func describe(_ size: HTMLContentSize?) -> String {
        size.map { "\(Int($0.width))×\(Int($0.height))" } ?? "an unmeasured size"
    }
}

extension ContentBlockPlaceholder {
    fileprivate func reloadAndWait(_ manager: ContentBlockManager) async {
        reload()
        await manager.waitUntilIdle()
    }
}

/// Prints each block shown, then calls through to the default behaviour, which tracks it; lets the demo wait
/// for a number of shows.
private final class DemoShownBlocks: ContentBlockCallback {
    private struct State {
        var count = 0
        var waiter: (target: Int, continuation: CheckedContinuation<Void, Never>)?
    }

    private let original: any ContentBlockCallback
    private let state = Mutex(State())

    init(original: any ContentBlockCallback) {
        self.original = original
    }

    func waitForShows(_ target: Int) async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                if state.count < target { state.waiter = (target, continuation) }
                return state.count >= target
            }
            if done { continuation.resume() }
        }
    }

    func onMessageShown(placeholderID: String, contentBlock: ContentBlock) {
        print("   👀 \(placeholderID) shows \(contentBlock.description)")
        original.onMessageShown(placeholderID: placeholderID, contentBlock: contentBlock)
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.count += 1
            guard let waiter = state.waiter, state.count >= waiter.target else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }

    func onNoMessageFound(placeholderID: String) {
        original.onNoMessageFound(placeholderID: placeholderID)
    }

    func onError(placeholderID: String, contentBlock: ContentBlock?, errorMessage: String) {
        print("   ⚠️ \(placeholderID): \(errorMessage)")
        original.onError(placeholderID: placeholderID, contentBlock: contentBlock, errorMessage: errorMessage)
    }

    func onCloseClicked(placeholderID: String, contentBlock: ContentBlock) {
        print("   ✖️ the user closes \(contentBlock.description)")
        original.onCloseClicked(placeholderID: placeholderID, contentBlock: contentBlock)
    }

    func onLinkClicked(placeholderID: String, contentBlock: ContentBlock, link: ContentBlockLink) {
        print("   👆 the user clicks \"\(link.text ?? "")\" in \(contentBlock.description)")
        original.onLinkClicked(placeholderID: placeholderID, contentBlock: contentBlock, link: link)
    }
}

/// Takes the links users click that the app's router does not answer (web pages, `mailto:`), as
/// `UIApplication.shared.open` would.
private final class DemoURLOpener: ContentBlockURLOpener {
    private let pending = Mutex<[URL]>([])

    func open(_ url: URL) {
        pending.withLock { $0.append(url) }
    }

    func take() -> URL? {
        pending.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}
