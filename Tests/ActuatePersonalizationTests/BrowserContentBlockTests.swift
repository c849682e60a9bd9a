import ActuateReporting
import Foundation
import Testing

@testable import ActuatePersonalization

/// Loads a content block with hostile scripts, as a placeholder presents it, into a real engine (WebKitGTK under
/// Xvfb). The user clicks a link and the close element; the page's script clicks them too, navigates by script and
/// forges bridge messages, and a ``TokenThief`` forges well-formed ones and goes after the document's token. What
/// the engine posted is then fed to that placeholder through its surface: only the user's clicks may open a link
/// or close the block.
///
/// Skipped, with the reason, when the engine is not installed; a failure instead when
/// `ACTUATE_REQUIRE_BROWSER=1` (set by `.ci/run`).
@Suite("Content-block bridge in a real browser engine")
struct BrowserContentBlockTests {
    static let thief = TokenThief(
        handler: "actuateContentBlock",
        forgeries: [
            #"{ action: "click", link: "https://shop.example.com/forged", text: "Forged" }"#,
            #"{ action: "close" }"#,
        ]
    )

    /// The page's own hostile markup and scripts, after the thief's.
    static let pageScripts = #"""
        <div id="actuate-marker">
          <a id="shop" href="https://shop.example.com/hero">Open hero</a>
          <a id="script-link" href="javascript:alert('content block javascript link')">Run script</a>
          <div id="navigator">Navigate by script</div>
          <button id="close" data-actuate-close>×</button>
        </div>
        <script>
        (function () {
          var handler = window.webkit.messageHandlers.actuateContentBlock;
          document.getElementById("navigator").addEventListener("click", function () {
            try { location.href = "javascript:alert('script javascript: navigation')"; } catch (e) {}
            try { top.location.assign("data:text/html,<b>data</b>"); } catch (e) {}
          });
          document.addEventListener("DOMContentLoaded", function () {
            setTimeout(function () {
              document.getElementById("shop").click();
              document.getElementById("close").dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
              handler.postMessage(JSON.stringify({ action: "open", link: "https://shop.example.com/hero" }));
              handler.postMessage(JSON.stringify({ action: "click", link: "javascript:alert(1)" }));
              handler.postMessage(JSON.stringify({ action: "click", link: "data:text/html,<b>x</b>" }));
              handler.postMessage(JSON.stringify({ action: "click", link: "https://shop.example.com/" + new Array(3001).join("h") }));
              handler.postMessage(JSON.stringify({ action: "click", link: "" }));
              handler.postMessage(JSON.stringify({ action: 1 }));
              handler.postMessage(new Array(10001).join("x"));
              handler.postMessage("[]");
              handler.postMessage(42);
            }, 50);
          });
        })();
        </script>
        """#

    static let html = thief.script + pageScripts

    static let clicks = ["shop", "script-link", "navigator", "close"]

    static let block = ContentBlock.test("hostile", placeholders: ["home"], html: html)

    /// The placeholder whose document the engine runs.
    static let presented = Task { await PresentedContentBlock.showing(block) }

    /// The engine run, shared by the tests of this suite: the reason the engine is missing, or its report.
    static let run = Task<Result<BrowserEngine.Report, any Error>, Never> {
        await presented.value.run(clicking: clicks)
    }

    /// The report, or a skip (a failure when the engine is required).
    private func report() async throws -> BrowserEngine.Report {
        try await BrowserEngine.report(of: Self.run)
    }

    /// The message parsed as the placeholder does, for the document the engine ran.
    private static func parse(
        _ message: BrowserEngine.Report.Message,
        token: String
    ) -> Result<ContentBlockBridgeMessage, BridgeMessageError> {
        BridgeMessage.parseBlockMessage(
            message.delivered,
            bridge: ContentBlockDocument.bridge(allowing: ["http", "https"]),
            token: BridgeToken(token)
        )
    }

    @Test("the user's clicks post a click and a close; the page stays, and runs no javascript: URL")
    func userClicks() async throws {
        let report = try await report()
        let token = await Self.presented.value.token
        func accepted(_ id: String) -> [ContentBlockBridgeMessage] {
            (report.click(id)?.messages ?? []).compactMap { try? Self.parse($0, token: token).get() }
        }
        #expect(report.error == nil)
        #expect(report.loaded)
        for id in Self.clicks {
            #expect(report.click(id)?.delivered == true, "the engine did not deliver the click on #\(id)")
        }
        let shop = ContentBlockLink(url: "https://shop.example.com/hero", text: "Open hero")
        #expect(accepted("shop") == [.click(shop)])
        #expect(accepted("close") == [.close])
        #expect(TokenThief.withoutThief(report.click("navigator")?.messages ?? []) == [])
        #expect(report.finalUri == "about:blank")
        #expect(report.markerPresent, "the page must still be the block")
        #expect(report.dialogs == [], "a javascript: URL ran: \(report.dialogs)")
        #expect(report.newWindows == [])
        #expect(!report.navigations.contains { $0.uri.hasPrefix("https://shop.example.com") })
    }

    @Test("clicks the page's script makes and messages it forges are refused, each with a reason")
    func scriptClicksAndForgeriesRefused() async throws {
        let report = try await report()
        let token = await Self.presented.value.token
        let unprompted = report.loadMessages + report.lateMessages
        let pages = TokenThief.withoutThief(unprompted)
        #expect(pages.count == 9, "the page's script did not run to the end: \(pages.count) messages")
        for message in unprompted {
            if case .success(let accepted) = Self.parse(message, token: token) {
                Issue.record("the page made a \(accepted) on its own")
            }
        }
        // Each well-formed message the page posted itself lacks the token, and is refused for that first; one
        // without a string action is refused for that, before its token is looked at (the one order of checks
        // of every bridge message).
        let forged = BridgeMessageError.forged
        let objects = pages.filter { $0.delivered.hasPrefix("{") }
        let withoutAction = objects.filter { $0.delivered == #"{"action":1}"# }
        #expect(objects.count == 6)
        #expect(withoutAction.map { Self.parse($0, token: token) } == [.failure(.missingField("action"))])
        #expect(
            objects.filter { !withoutAction.contains($0) }.allSatisfy {
                Self.parse($0, token: token) == .failure(forged)
            }
        )
        // The user's script link is refused too: its scheme is not allowed.
        let scriptLink = TokenThief.withoutThief(report.click("script-link")?.messages ?? [])
        #expect(scriptLink.count == 1)
        guard case .failure(.disallowedHref(let link)) = scriptLink.first.map({ Self.parse($0, token: token) }) else {
            Issue.record("the user's javascript: link was not refused: \(scriptLink)")
            return
        }
        #expect(link.hasPrefix("javascript:"))
    }

    @Test("the page cannot forge a click or close, or learn the token, whatever it replaces")
    func tokenStaysSecret() async throws {
        let report = try await report()
        let token = await Self.presented.value.token
        let forged = BridgeMessageError.forged
        let forgeries = TokenThief.forgeries(in: report)
        #expect(forgeries.allSatisfy { Self.parse($0, token: token) == .failure(forged) })
        Self.thief.expectNothingLeaked(report, token: token)
    }

    @Test("replayed into the placeholder, only the user's click opens a link and only the user's close closes")
    func replayIntoPlaceholder() async throws {
        let report = try await report()
        let presented = await Self.presented.value
        let (fixture, surface, callback) = (presented.fixture, presented.surface, presented.callback)
        let beforeClose =
            report.loadMessages + report.clicks.filter { $0.id != "close" }.flatMap(\.messages) + report.lateMessages
        for message in beforeClose { surface.post(message.delivered) }
        await presented.manager.waitUntilIdle()
        #expect(fixture.opener.opened == [URL(string: "https://shop.example.com/hero")!])
        #expect(!callback.calls.contains(.closeClicked("home", blockID: "hostile")))
        // The first refused message told the callback why; the others (all but the user's click on the link) were
        // counted, one error per block and page view.
        let errors = callback.calls.filter { if case .error = $0 { true } else { false } }
        #expect(errors.count == 1)
        #expect(presented.placeholder.droppedErrorCount == beforeClose.count - 2)
        for message in report.click("close")?.messages ?? [] { surface.post(message.delivered) }
        await presented.manager.waitUntilIdle()
        #expect(callback.calls.filter { $0 == .closeClicked("home", blockID: "hostile") }.count == 1)
    }
}
