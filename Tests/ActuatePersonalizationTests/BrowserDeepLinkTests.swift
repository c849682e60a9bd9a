import ActuatePersonalizationTesting
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins
@testable import ActuateReporting
@testable import ActuateTesting

/// A `shop://product/p1` link in a content action and in a content block, wired through an ``ActuateSystem``,
/// clicked with real pointer events in a real engine (WebKitGTK under Xvfb): the click reaches the app and the
/// system's router opens it; `javascript:`, `data:`, `blob:` and `file:` links never reach the app. The
/// ``SimulatedHTMLSurface`` posts, for the same document and element, what the engine's bridge posted.
///
/// Skipped, with the reason, when the engine is not installed; a failure instead when
/// `ACTUATE_REQUIRE_BROWSER=1` (set by `.ci/run`).
@Suite("Deep links in a real browser engine reach the app and the router")
struct BrowserDeepLinkTests {
    static let content = """
        <div id="actuate-marker">
          <a id="deep" href="shop://product/p1">Today's pick</a>
          <a id="script" href="javascript:alert('deep link test')">Script</a>
          <a id="data" href="data:text/html,hello">Data</a>
          <a id="blob" href="blob:https://shop.example.com/5b6c">Blob</a>
          <a id="file" href="file:///etc/hostname">File</a>
          <button id="close" data-actuate-close>×</button>
        </div>
        """
    static let clicks = ["deep", "script", "data", "blob", "file", "close"]

    /// A content action rendered with `render(on:system:)`, the engine run on its document.
    final class RenderedAction: Sendable {
        let fixture = TrackerFixture()
        let shop: DeepLinkShop
        let surface = RecordingHTMLSurface()
        private let received = ContentActionRoutingTests.Clicks()

        init() throws {
            shop = try DeepLinkShop()
            let action = ContentAction(
                id: 41,
                name: "Deep banner",
                contentType: "text/html",
                content: BrowserDeepLinkTests.content,
                tracker: fixture.tracker
            )
            action.render(on: surface, system: shop.system) { [received] clicked in received.append(clicked) }
        }

        var document: String { surface.loadedDocuments.last ?? "" }
        var clicks: [ActionClicked] { received.all }
    }

    /// A content block shown by a placeholder whose manager is routed through the system.
    final class PresentedBlock: Sendable {
        let fixture = ContentBlockFixture()
        let shop: DeepLinkShop
        let surface = InstantHTMLSurface()
        let manager: ContentBlockManager
        let placeholder: ContentBlockPlaceholder
        let callback: RecordingContentBlockCallback

        init() throws {
            shop = try DeepLinkShop()
            manager = fixture.makeManager(
                ScriptedContentBlockSource([.test("deep", html: BrowserDeepLinkTests.content)]),
                configuration: fixture.configuration(allowedLinkSchemes: ["https"]).routed(through: shop.system)
            )
            (placeholder, callback) = manager.deferredPlaceholder(surface: surface)
        }

        var document: String { surface.documents.last ?? "" }
    }

    static let action = Task { () -> Result<RenderedAction, any Error> in Result(catching: { try RenderedAction() }) }
    static let actionRun = Task<Result<BrowserEngine.Report, any Error>, Never> {
        switch await action.value {
        case .failure(let error): return .failure(error)
        case .success(let rendered):
            return await BrowserEngine.runIfAvailable(html: rendered.document, handler: "actuate", clicks: clicks)
        }
    }

    static let block = Task { () -> Result<PresentedBlock, any Error> in
        Result(catching: { try PresentedBlock() })
    }
    static let blockRun = Task<Result<BrowserEngine.Report, any Error>, Never> {
        switch await block.value {
        case .failure(let error): return .failure(error)
        case .success(let presented):
            await presented.placeholder.reloadAndWait(presented.manager)
            return await BrowserEngine.runIfAvailable(
                html: presented.document,
                handler: "actuateContentBlock",
                clicks: clicks
            )
        }
    }

    private static func fields(_ text: String) -> [String: String]? {
        try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))
    }

    /// Checks that a ``SimulatedHTMLSurface`` given `document` posts, for a click on each element, what the engine
    /// posted for the user's click on it.
    private static func expectSimulationMatches(
        _ report: BrowserEngine.Report,
        document: String,
        handler: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let simulated = SimulatedHTMLSurface()
        simulated.load(html: document, bridgeName: handler, onMessage: { _ in }, completion: { _ in })
        for id in clicks {
            let engine = (report.click(id)?.messages ?? []).map { fields($0.delivered) }
            let simulation = try simulated.click(id: id).map { [fields($0)] } ?? []
            #expect(engine == simulation, "#\(id): the engine posted \(engine)", sourceLocation: sourceLocation)
        }
    }

    @Test("content action: the shop:// link reaches the app and the router; script links arrive without a link")
    func contentAction() async throws {
        let report = try await BrowserEngine.report(of: Self.actionRun)
        let rendered = try await Self.action.value.get()
        #expect(report.error == nil)
        #expect(report.loaded)
        for id in Self.clicks {
            #expect(report.click(id)?.delivered == true, "the engine did not deliver the click on #\(id)")
        }
        for message in report.loadMessages { rendered.surface.post(message.delivered) }
        rendered.surface.finishLoad()
        for click in report.clicks {
            for message in click.messages { rendered.surface.post(message.delivered) }
        }
        for message in report.lateMessages { rendered.surface.post(message.delivered) }
        await rendered.fixture.tracker.waitForReports()

        #expect(rendered.clicks.map(\.href) == ["shop://product/p1", "", "", "", "", ""])
        #expect(rendered.clicks.map(\.status) == [.target, .target, .target, .target, .target, .close])
        #expect(rendered.shop.openings.all == ["shop://product/p1 → performed: success"])
        #expect(rendered.shop.routedInputs == ["p1"])
        #expect(rendered.fixture.errors.all == [])
        #expect(report.dialogs == [], "a javascript: URL ran: \(report.dialogs)")
        #expect(report.finalUri == "about:blank")
        try Self.expectSimulationMatches(report, document: rendered.document, handler: "actuate")
    }

    @Test("content block: the shop:// link reaches the app and the router; script links are refused as errors")
    func contentBlock() async throws {
        let report = try await BrowserEngine.report(of: Self.blockRun)
        let presented = try await Self.block.value.get()
        #expect(report.error == nil)
        #expect(report.loaded)
        for id in Self.clicks {
            #expect(report.click(id)?.delivered == true, "the engine did not deliver the click on #\(id)")
        }
        for message in report.allMessages { presented.surface.post(message.delivered) }
        await presented.manager.waitUntilIdle()

        let calls = presented.callback.calls
        #expect(calls.contains(.actionClicked("home", blockID: "deep", url: "shop://product/p1", text: "Today's pick")))
        #expect(calls.contains(.closeClicked("home", blockID: "deep")))
        let clickedURLs = calls.compactMap { call -> String? in
            if case .actionClicked(_, _, let url, _) = call { return url }
            return nil
        }
        #expect(clickedURLs == ["shop://product/p1"])
        let refused = calls.compactMap { call -> String? in
            if case .error(_, _, let message) = call { return message }
            return nil
        }
        // One error per block and page view (the first refused link, `javascript:`); the other three are counted.
        #expect(refused.count == 1, "\(refused)")
        #expect(refused.first?.contains("the scheme \"javascript\", which is not allowed") == true, "\(refused)")
        #expect(presented.placeholder.droppedErrorCount == 3)
        #expect(presented.shop.openings.all == ["shop://product/p1 → performed: success"])
        #expect(presented.shop.routedInputs == ["p1"])
        #expect(presented.fixture.opener.opened == [])
        #expect(report.dialogs == [], "a javascript: URL ran: \(report.dialogs)")
        try Self.expectSimulationMatches(report, document: presented.document, handler: "actuateContentBlock")
    }
}
