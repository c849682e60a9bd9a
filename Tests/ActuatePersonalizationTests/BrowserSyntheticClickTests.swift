import ActuateReporting
import Foundation
import Testing

@testable import ActuatePersonalization

/// Content whose script clicks its own links with events that cannot be cancelled
/// (`dispatchEvent(new MouseEvent("click", { bubbles: true }))`), run in a real engine (WebKitGTK under Xvfb), as a
/// content block and as a content action: the bridge cannot cancel such a click, so it takes the link's `href`
/// away for the length of the dispatch. The engine's driver records every navigation the page asks for (and
/// refuses it, as `WebKitHTMLSurface` does): none may be asked for, nothing may be posted, and the user's own click
/// afterwards still posts the link.
///
/// Skipped, with the reason, when the engine is not installed; a failure instead when
/// `ACTUATE_REQUIRE_BROWSER=1` (set by `.ci/run`).
@Suite("Clicks a script dispatches as not cancelable, in a real browser engine")
struct BrowserSyntheticClickTests {
    static let target = "https://shop.example.com/synthetic"

    /// Two links the page clicks itself, one on the link and one on an element inside another link, then reads
    /// the first link's `href` again once the dispatch is over.
    static let content = """
        <div id="actuate-marker">
          <a id="shop" href="\(target)">Open the sale</a>
          <a id="nested" href="\(target)-nested"><span id="inner">Inner text</span></a>
        </div>
        <script>
        (function () {
          function click(id) {
            document.getElementById(id).dispatchEvent(new MouseEvent("click", { bubbles: true }));
          }
          document.addEventListener("DOMContentLoaded", function () {
            setTimeout(function () {
              click("shop");
              click("inner");
              click("shop");
              setTimeout(function () {
                var marker = document.getElementById("actuate-marker");
                marker.setAttribute("data-href-after", document.getElementById("shop").getAttribute("href"));
              }, 0);
            }, 50);
          });
        })();
        </script>
        """

    static let block = ContentBlock.test("synthetic", placeholders: ["home"], html: content)
    static let presented = Task { await PresentedContentBlock.showing(block) }
    static let blockRun = Task<Result<BrowserEngine.Report, any Error>, Never> {
        await presented.value.run(clicking: ["shop"])
    }

    static let rendered = RenderedContentAction(id: 12, name: "Synthetic clicks", content: content)
    static let actionRun = Task<Result<BrowserEngine.Report, any Error>, Never> {
        await rendered.run(clicking: ["shop"])
    }

    /// What the report must show whichever document ran: no navigation asked for, the page still the content,
    /// the link's `href` back in place.
    private static func expectNoNavigation(_ report: BrowserEngine.Report) {
        #expect(report.error == nil)
        #expect(report.loaded)
        #expect(report.navigations == [], "a click the page dispatched asked to navigate: \(report.navigations)")
        #expect(report.newWindows == [])
        #expect(report.finalUri == "about:blank")
        #expect(report.markerPresent, "the page must still be the content")
        #expect(
            report.documentText?.contains("data-href-after=\"\(target)\"") == true,
            "the link did not get its href back"
        )
    }

    @Test("in a content block, the page's own uncancelable clicks neither navigate nor post; the user's click posts")
    func contentBlock() async throws {
        let report = try await BrowserEngine.report(of: Self.blockRun)
        Self.expectNoNavigation(report)
        #expect(report.loadMessages + report.lateMessages == [], "the page's own clicks posted")
        let token = await Self.presented.value.token
        let posted = (report.click("shop")?.messages ?? []).compactMap { message in
            try? BridgeMessage.parseBlockMessage(
                message.delivered,
                bridge: ContentBlockDocument.bridge(allowing: ["http", "https"]),
                token: BridgeToken(token)
            ).get()
        }
        #expect(posted == [.click(ContentBlockLink(url: Self.target, text: "Open the sale"))])
        #expect(report.click("shop")?.navigations == [])
    }

    @Test("in a content action, the page's own uncancelable clicks neither navigate nor post; the user's click posts")
    func contentAction() async throws {
        let report = try await BrowserEngine.report(of: Self.actionRun)
        Self.expectNoNavigation(report)
        #expect(report.loadMessages + report.lateMessages == [], "the page's own clicks posted")
        let posted = (report.click("shop")?.messages ?? []).compactMap { message in
            try? BridgeMessage.parse(
                message.delivered,
                actionID: 12,
                bridge: .standard,
                token: BridgeToken(Self.rendered.token)
            ).get()
        }
        #expect(posted == [ActionClicked(actionID: 12, href: Self.target, status: .target)])
    }
}
