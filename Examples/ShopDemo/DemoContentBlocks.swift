import Actuate
import ActuatePersonalization
import ActuateReporting
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
              "html": "<h2>Welcome to the shop!</h2><a href=\"shop://product/p1\">See today's pick</a>" },
            { "id": "spring-sale", "name": "Spring sale", "placeholders": ["home"], "priority": 5,
              "variant": { "id": "b", "name": "Bold headline" },
              "html": "<h2>SPRING SALE: 20% OFF</h2><button data-actuate-close>×</button>" },
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

    static func run(reporting: DemoReporting, system: ActuateSystem) async throws {
        print("\n7. Content blocks: a home placeholder and a carousel, with their events")
        let opener = DemoURLOpener()
        let manager = ContentBlockManager(
            source: try LocalContentBlockSource(data: Data(rules.utf8), name: "embedded demo rules"),
            reporter: reporting.reporter,
            directory: dataDirectory,
            configuration: ContentBlockConfiguration(
                session: system.mainSession,
                urlOpener: opener,
                carouselInterval: .milliseconds(200),
                allowedLinkSchemes: ["https", "shop"]
            )
        )
        print("   Display history: \(dataDirectory.path) (delete it to start over)")
        manager.prefetchPlaceholders(ids: ["home", "home-carousel"])
        await manager.waitUntilIdle()

        let surface = DemoBlockSurface(label: "home")
        let home = ContentBlockPlaceholder(
            placeholderId: "home",
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
            surface.click(#"{"action": "click", "link": "shop://product/p1", "text": "See today's pick"}"#)
            await manager.waitUntilIdle()
            if let url = opener.take() {
                print("   🔗 the link opens through the router: \(await system.open(url: url))")
            }
            await home.reloadAndWait(manager)
        } else {
            print("   The onlyOnce welcome block was shown on an earlier run, so it is gone now.")
        }
        surface.click(#"{"action": "close"}"#)
        await manager.waitUntilIdle()

        let carouselSurface = DemoBlockSurface(label: "carousel")
        let carousel = ContentBlockPlaceholder(
            placeholderId: "home-carousel",
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
            let block = event.properties[ReportEventKey.actionId]?.stringValue ?? "?"
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

    func onMessageShown(placeholderId: String, contentBlock: ContentBlock) {
        print("   👀 \(placeholderId) shows \(contentBlock.description)")
        original.onMessageShown(placeholderId: placeholderId, contentBlock: contentBlock)
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.count += 1
            guard let waiter = state.waiter, state.count >= waiter.target else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }

    func onNoMessageFound(placeholderId: String) {
        original.onNoMessageFound(placeholderId: placeholderId)
    }

    func onError(placeholderId: String, contentBlock: ContentBlock?, errorMessage: String) {
        print("   ⚠️ \(placeholderId): \(errorMessage)")
        original.onError(placeholderId: placeholderId, contentBlock: contentBlock, errorMessage: errorMessage)
    }

    func onCloseClicked(placeholderId: String, contentBlock: ContentBlock) {
        print("   ✖️ the user closes \(contentBlock.description)")
        original.onCloseClicked(placeholderId: placeholderId, contentBlock: contentBlock)
    }

    func onActionClicked(placeholderId: String, contentBlock: ContentBlock, action: ContentBlockAction) {
        print("   👆 the user clicks \"\(action.text ?? "")\" in \(contentBlock.description)")
        original.onActionClicked(placeholderId: placeholderId, contentBlock: contentBlock, action: action)
    }
}

/// An ``HTMLSurface`` for a terminal: prints the block's text, reports a size from its length, and lets the
/// demo click by posting the message the page's bridge posts.
private final class DemoBlockSurface: HTMLSurface {
    private let label: String
    private let onMessage = Mutex<(@Sendable (String) -> Void)?>(nil)

    init(label: String) {
        self.label = label
    }

    func load(
        html: String,
        bridgeName: String,
        onMessage: @escaping @Sendable (String) -> Void,
        completion: @escaping @Sendable (HTMLSurfaceLoadResult) -> Void
    ) {
        self.onMessage.withLock { $0 = onMessage }
        let text = DemoHTMLText.text(of: html, upTo: "<script>")
        print("     ┃ [\(label)] \(text)")
        completion(.loaded(size: HTMLContentSize(width: 375, height: Double(40 + text.count / 40 * 20))))
    }

    func click(_ message: String) {
        onMessage.withLock { $0 }?(message)
    }
}

/// Hands the links users click to the demo, which opens them through the app's router.
private final class DemoURLOpener: ContentBlockURLOpener {
    private let pending = Mutex<[URL]>([])

    func open(_ url: URL) {
        pending.withLock { $0.append(url) }
    }

    func take() -> URL? {
        pending.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}
