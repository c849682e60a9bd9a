import ActuateReporting
import Foundation
import Testing

@testable import ActuatePersonalization

/// Loads a content block with hostile scripts, wrapped as a placeholder shows it (`ContentBlockDocument`), into a
/// real engine (WebKitGTK under Xvfb). The user clicks a link and the close element; the page's script clicks
/// them too, navigates by script and forges bridge messages. What the engine posted is then fed to a placeholder
/// through its surface: only the user's clicks may open a link or close the block.
///
/// Skipped, with the reason, when the engine is not installed; a failure instead when
/// `ACTUATE_REQUIRE_BROWSER=1` (set by `.ci/run`).
@Suite("Content-block bridge in a real browser engine")
struct BrowserContentBlockTests {
    static let html = #"""
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

    static let clicks = ["shop", "script-link", "navigator", "close"]

    static let block = ContentBlock.test("hostile", placeholders: ["home"], html: html)

    /// The engine run, shared by the tests of this suite: the reason the engine is missing, or its report.
    static let run = Task<Result<BrowserEngine.Report, any Error>, Never> {
        await BrowserEngine.runIfAvailable(
            html: ContentBlockDocument.html(for: block, assets: [:]),
            handler: ContentBlockDocument.bridgeName,
            clicks: clicks
        )
    }

    /// The report, or a skip (a failure when the engine is required).
    private func report() async throws -> BrowserEngine.Report {
        try await BrowserEngine.report(of: Self.run)
    }

    private static func parse(_ message: BrowserEngine.Report.Message) -> ContentBlockBridgeMessage? {
        try? ContentBlockBridgeMessage(parsing: message.delivered, allowedSchemes: ["http", "https"])
    }

    @Test("the user's clicks post a click and a close; the page stays, and runs no javascript: URL")
    func userClicks() async throws {
        let report = try await report()
        #expect(report.error == nil)
        #expect(report.loaded)
        for id in Self.clicks {
            #expect(report.click(id)?.delivered == true, "the engine did not deliver the click on #\(id)")
        }
        #expect(
            report.click("shop")?.messages.compactMap(Self.parse) == [
                .click(ContentBlockAction(url: "https://shop.example.com/hero", text: "Open hero"))
            ]
        )
        #expect(report.click("close")?.messages.compactMap(Self.parse) == [.close])
        #expect(report.click("navigator")?.messages == [])
        #expect(report.finalUri == "about:blank")
        #expect(report.markerPresent, "the page must still be the block")
        #expect(report.dialogs == [], "a javascript: URL ran: \(report.dialogs)")
        #expect(report.newWindows == [])
        #expect(!report.navigations.contains { $0.uri.hasPrefix("https://shop.example.com") })
    }

    @Test("clicks the page's script makes and messages it forges are refused, each with a reason")
    func scriptClicksAndForgeriesRefused() async throws {
        let report = try await report()
        let unprompted = report.loadMessages + report.lateMessages
        #expect(unprompted.count == 9, "the page's script did not run to the end: \(unprompted.count) messages")
        for message in unprompted {
            if let accepted = Self.parse(message) {
                Issue.record("the page made a \(accepted) on its own")
            }
        }
        // The user's script link is refused too: its scheme is not allowed.
        #expect(report.click("script-link")?.messages.compactMap(Self.parse) == [])
    }

    @Test("replayed into a placeholder, only the user's click opens a link and only the user's close closes")
    func replayIntoPlaceholder() async throws {
        let report = try await report()
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource([Self.block]))
        let surface = InstantHTMLSurface()
        let placeholder = ContentBlockPlaceholder(
            placeholderId: "home",
            deferredLoad: true,
            manager: manager,
            surface: surface
        )
        let callback = RecordingContentBlockCallback.install(on: placeholder)
        await placeholder.reloadAndWait(manager)
        for message in report.loadMessages + report.lateMessages { surface.post(message.delivered) }
        for click in report.clicks where click.id != "close" {
            for message in click.messages { surface.post(message.delivered) }
        }
        await manager.waitUntilIdle()
        #expect(fixture.opener.opened == [URL(string: "https://shop.example.com/hero")!])
        #expect(!callback.calls.contains(.closeClicked("home", blockId: "hostile")))
        for message in report.click("close")?.messages ?? [] { surface.post(message.delivered) }
        await manager.waitUntilIdle()
        #expect(callback.calls.filter { $0 == .closeClicked("home", blockId: "hostile") }.count == 1)
        // Each refused message told the callback why: the nine the page forged and the user's javascript: link.
        let errors = callback.calls.filter { if case .error = $0 { true } else { false } }
        #expect(errors.count == 10, "\(errors)")
    }
}
