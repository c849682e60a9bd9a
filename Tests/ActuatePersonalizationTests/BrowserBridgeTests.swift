import ActuateReporting
import Foundation
import Testing

@testable import ActuatePersonalization

/// Loads the document `render(on:)` produces into a real engine (WebKitGTK under Xvfb) and clicks each kind of
/// element, then feeds what the engine posted back into that render.
///
/// Skipped, with the reason, when the engine is not installed; a failure instead when
/// `ACTUATE_REQUIRE_BROWSER=1` (set by `.ci/run`).
@Suite("Bridge in a real browser engine")
struct BrowserBridgeTests {
    static let content = """
        <div id="actuate-marker">
          <a id="link" href="https://shop.example.com/spring">Spring sale</a>
          <a id="js-link" href="javascript:alert('from a link')">Run script</a>
          <a id="data-link" href="data:text/html,<b>data</b>">Data URL</a>
          <a id="relative-link" href="/relative/path">Relative</a>
          <a id="product" href="https://shop.example.com/p/sku-1" data-actuate-product="sku-1"><span id="product-name">Trail shoes</span></a>
          <div id="article" data-actuate-article="care-guide">Leather care guide</div>
          <button id="close" data-actuate-close="2">×</button>
          <span id="hero" data-actuate-target="hero">Hero</span>
          <p id="plain">Just text.</p>
          <form id="form" action="https://evil.example/submit"><button id="submit" type="submit">Send</button></form>
          <div id="hostile">Hostile area</div>
        </div>
        <script>
        (function () {
          var handler = window.webkit.messageHandlers.actuate;
          handler.postMessage(JSON.stringify({ status: "target", href: "", arg: "posted while loading" }));
          document.getElementById("hostile").addEventListener("click", function () {
            handler.postMessage(JSON.stringify({ status: "hijack", href: "", arg: "" }));
            handler.postMessage(JSON.stringify({ status: "target", href: "javascript:alert(document.cookie)", arg: "" }));
            handler.postMessage(JSON.stringify({ status: "product", href: "", arg: new Array(9001).join("x") }));
            handler.postMessage({ status: "target", href: "", arg: "" });
            document.body.setAttribute("data-opened", String(window.open("https://evil.example/popup")));
            top.location.href = "https://evil.example/phish";
          });
          setTimeout(function () { window.location.assign("https://evil.example/after-load"); }, 0);
        })();
        </script>
        """

    /// Where the page's script tries to go on its own, right after loading.
    static let timerRedirect = "https://evil.example/after-load"

    static let clicks = [
        "link", "js-link", "data-link", "relative-link", "product-name", "article", "close", "hero", "plain", "submit",
        "hostile",
    ]

    /// The render whose document the engine runs.
    static let rendered = RenderedContentAction(id: 7, name: "Hostile banner", content: content)

    /// The engine run, shared by the tests of this suite: the reason the engine is missing, or its report.
    static let run = Task<Result<BrowserEngine.Report, any Error>, Never> {
        await rendered.run(clicking: clicks)
    }

    /// The report, or a skip (a failure when the engine is required).
    private func report() async throws -> BrowserEngine.Report {
        try await BrowserEngine.report(of: Self.run)
    }

    private static func summary(_ report: BrowserEngine.Report) -> String {
        let clicks = report.clicks.map { click in
            let messages = click.messages.map { message in
                let text = message.text ?? "<\(message.kind)>"
                return text.count > 80 ? "\(text.prefix(60))…(\(text.count) characters)" : text
            }
            .joined(separator: " ")
            return "\(click.id)→[\(messages)]"
        }
        return "loaded=\(report.loaded) loadMessages=\(report.loadMessages.count) clicks: "
            + clicks.joined(separator: "; ")
            + " navigations=\(report.navigations.map(\.uri)) newWindows=\(report.newWindows.count) "
            + "dialogs=\(report.dialogs.count) finalUri=\(report.finalUri ?? "?") marker=\(report.markerPresent)"
    }

    @Test("each kind of element posts the right bridge message, with no href for javascript: and data: links")
    func clickKinds() async throws {
        let report = try await report()
        print("Browser bridge report (WebKitGTK \(report.engine)): \(Self.summary(report))")
        #expect(report.error == nil)
        #expect(report.loaded)
        for id in Self.clicks {
            #expect(report.click(id)?.delivered == true, "the engine did not deliver the click on #\(id)")
        }
        func messages(_ id: String) -> [String] { report.click(id)?.messages.map(\.delivered) ?? ["<no click>"] }
        let token = Self.rendered.token
        #expect(token.count == 32)
        // Each message ends with the document's token, after the fields.
        func posted(_ status: String, _ href: String, _ arg: String) -> String {
            #"{"status":"\#(status)","href":"\#(href)","arg":"\#(arg)","token":"\#(token)"}"#
        }
        #expect(messages("link") == [posted("target", "https://shop.example.com/spring", "")])
        #expect(messages("js-link") == [posted("target", "", "")])
        #expect(messages("data-link") == [posted("target", "", "")])
        #expect(messages("relative-link") == [posted("target", "", "")])
        #expect(messages("product-name") == [posted("product", "https://shop.example.com/p/sku-1", "sku-1")])
        #expect(messages("article") == [posted("article", "", "care-guide")])
        #expect(messages("close") == [posted("close", "", "2")])
        #expect(messages("hero") == [posted("target", "", "hero")])
        #expect(messages("plain") == [])
        #expect(messages("submit") == [])
    }

    @Test("no click navigates the page, runs a javascript: URL or opens a window")
    func noNavigation() async throws {
        let report = try await report()
        for id in Self.clicks where id != "hostile" {
            // The page's own timer redirects once after loading; on a slow machine it may fire during a click.
            let navigations = report.click(id)?.navigations.filter { $0.uri != Self.timerRedirect } ?? []
            #expect(navigations == [], "clicking #\(id) tried to navigate")
            #expect(report.click(id)?.dialogs == [], "clicking #\(id) ran a script")
        }
        #expect(report.dialogs == [])
        #expect(report.newWindows == [], "window.open must not reach the engine")
        #expect(report.finalUri == "about:blank")
        #expect(report.markerPresent, "the page must still be the content")
    }

    @Test("hostile scripts: top-frame navigation is attempted and refused, forged messages are refused")
    func hostileScripts() async throws {
        let report = try await report()
        let hostile = try #require(report.click("hostile"))
        // The attempt is refused wherever the engine reports it; on a loaded machine it may come after the click's
        // window closed, so the click may hold it or not, but nothing else.
        let duringClick = hostile.navigations.map(\.uri).filter { $0 != Self.timerRedirect }
        #expect(duringClick.allSatisfy { $0 == "https://evil.example/phish" }, "\(duringClick)")
        #expect(Set(report.navigations.map(\.uri)) == [Self.timerRedirect, "https://evil.example/phish"])
        #expect(hostile.messages.count == 4)
        #expect(hostile.messages.last?.kind == "other")
        #expect(
            report.loadMessages.map(\.delivered) == [#"{"status":"target","href":"","arg":"posted while loading"}"#]
        )
        let token = BridgeToken(Self.rendered.token)
        let problems = hostile.messages.map {
            BridgeMessage.parse($0.delivered, actionID: 7, bridge: .standard, token: token)
        }
        // Without the token, a status or a link the bridge would never send is not even looked at.
        #expect(problems[0] == .failure(.forged))
        #expect(problems[1] == .failure(.forged))
        guard case .failure(.oversizedMessage) = problems[2] else {
            Issue.record("an oversized message was accepted: \(problems[2])")
            return
        }
        #expect(problems[3] == .failure(.notAnObject))
    }

    @Test("replayed into the render, the engine's messages give the right clicks and events")
    func replayThroughRender() async throws {
        let report = try await report()
        let rendered = Self.rendered
        rendered.replay(report)
        #expect(
            rendered.clicks == [
                ActionClicked(actionID: 7, href: "https://shop.example.com/spring", status: .target),
                ActionClicked(actionID: 7, status: .target),
                ActionClicked(actionID: 7, status: .target),
                ActionClicked(actionID: 7, status: .target),
                ActionClicked(actionID: 7, href: "https://shop.example.com/p/sku-1", status: .product, arg: "sku-1"),
                ActionClicked(actionID: 7, status: .article, arg: "care-guide"),
                ActionClicked(actionID: 7, status: .close, arg: "2"),
                ActionClicked(actionID: 7, status: .target, arg: "hero"),
            ]
        )
        let events = try await rendered.fixture.events()
        #expect(
            events.map(\.type) == ["error", "executed", "target", "product", "article", "close"],
            "one event per status and page view: the hostile messages' errors are duplicates of the first"
        )
        #expect(events.first?.properties["message"] == .string(BridgeMessageError.beforeLoad.description))
        #expect(events.allSatisfy { $0.properties["href"]?.stringValue?.hasPrefix("javascript:") != true })
    }
}
