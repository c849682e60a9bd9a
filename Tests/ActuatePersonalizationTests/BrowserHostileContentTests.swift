import ActuateReporting
import Foundation
import Testing

@testable import ActuatePersonalization

/// Loads hostile content, as `render(on:)` wraps it, into a real engine (WebKitGTK under Xvfb): scripts that
/// navigate the top frame, open windows, click links for the user, forge bridge messages with unknown statuses,
/// wrong types and oversized fields, `javascript:` and `data:` URLs in links, frames and script navigations, and
/// a ``TokenThief`` that forges well-formed clicks and goes after the document's token. The user clicks every
/// element; what the engine posted is then fed through the parser and back into the render.
///
/// Skipped, with the reason, when the engine is not installed; a failure instead when
/// `ACTUATE_REQUIRE_BROWSER=1` (set by `.ci/run`).
@Suite("Hostile content in a real browser engine")
struct BrowserHostileContentTests {
    static let thief = TokenThief(
        handler: ContentBridge.standard.handlerName,
        forgeries: [
            #"{ status: "target", href: "https://shop.example.com/forged", arg: "" }"#,
            #"{ status: "close", href: "", arg: "5" }"#,
        ]
    )

    /// The page's own hostile markup and scripts, after the thief's.
    static let pageScripts = #"""
        <div id="actuate-marker">
          <a id="user-link" href="https://shop.example.com/spring">Spring sale</a>
          <a id="product" href="https://shop.example.com/p/sku-1" data-actuate-product="sku-1">Trail shoes</a>
          <a id="blank-js-link" href="javascript:alert('blank javascript link')" target="_blank">New window script</a>
          <a id="top-data-link" href="data:text/html,<script>alert('data link')</script>" target="_top">Top data URL</a>
          <div id="navigator">Navigate by script</div>
          <div id="opener">Open windows</div>
          <div id="frame-opener">Open a window from a frame</div>
          <form id="hidden-form" action="https://evil.example/form"><input name="q" value="1"></form>
        </div>
        <script>
        (function () {
          var handler = window.webkit.messageHandlers.actuate;
          function forge() {
            var forged = [
              { status: "click", href: "", arg: "" },
              { status: "TARGET", href: "", arg: "" },
              { status: "", href: "", arg: "" },
              { status: "__proto__", href: "", arg: "" },
              { status: new Array(10001).join("s"), href: "", arg: "" },
              { status: "target", href: "https://shop.example.com/" + new Array(3001).join("h"), arg: "" },
              { status: "article", href: "", arg: new Array(1001).join("a") },
              { status: "target", href: "", arg: "", padding: new Array(9001).join("p") },
              { status: 1, href: "", arg: "" },
              { status: "target", href: null, arg: "" },
              { status: "target", href: "", arg: {} },
              { status: "target", href: "data:text/html,<script>alert(1)<\/script>", arg: "" },
              { status: "target", href: "javascript:alert(1)", arg: "" }
            ];
            forged.forEach(function (message) { handler.postMessage(JSON.stringify(message)); });
            handler.postMessage('{"status":"target","href":"","arg":""');
            handler.postMessage("null");
            handler.postMessage("[]");
            handler.postMessage(new Array(2001).join("[") + new Array(2001).join("]"));
            handler.postMessage('{"status":"target","href":"\ud800","arg":"\u0000"}'.replace("target", "hijack"));
            handler.postMessage(new Array(1000001).join("x"));
            handler.postMessage(42);
          }
          function synthesize() {
            document.getElementById("user-link").click();
            document.getElementById("product").dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
            document.getElementById("blank-js-link").click();
          }
          document.getElementById("navigator").addEventListener("click", function () {
            try { location.href = "javascript:alert('script javascript: navigation')"; } catch (e) {}
            try { top.location.assign("data:text/html,<b>data</b>"); } catch (e) {}
            try { location.replace("https://evil.example/replace"); } catch (e) {}
            try { document.getElementById("hidden-form").submit(); } catch (e) {}
          });
          document.getElementById("opener").addEventListener("click", function () {
            var results = [];
            try { results.push(String(window.open("javascript:alert('open javascript')"))); } catch (e) { results.push("threw"); }
            try { results.push(String(window.open("data:text/html,popup"))); } catch (e) { results.push("threw"); }
            try { delete window.open; } catch (e) {}
            try { window.open = function () { return "replaced"; }; } catch (e) {}
            try { results.push(String(window.open("https://evil.example/after-delete"))); } catch (e) { results.push("threw"); }
            handler.postMessage("open results: " + results.join(","));
          });
          document.getElementById("frame-opener").addEventListener("click", function () {
            try {
              var frame = document.createElement("iframe");
              document.body.appendChild(frame);
              frame.contentWindow.open("https://evil.example/frame-popup");
            } catch (e) {}
          });
          document.addEventListener("DOMContentLoaded", function () {
            setTimeout(function () { synthesize(); forge(); }, 50);
          });
        })();
        </script>
        <div id="frames">
          <iframe id="js-frame" src="javascript:parent.location.href='https://evil.example/js-frame'"></iframe>
          <iframe id="data-frame" src="data:text/html,<script>top.location.href='https://evil.example/data-frame'</script>"></iframe>
          <meta http-equiv="refresh" content="0;url=https://evil.example/refresh">
        </div>
        """#

    static let content = thief.script + pageScripts

    /// The elements the user clicks, in order.
    static let clicks = [
        "user-link", "product", "blank-js-link", "top-data-link", "navigator", "opener", "frame-opener",
    ]

    /// The render whose document the engine runs.
    static let rendered = RenderedContentAction(id: 9, name: "Hostile scripts", content: content)

    /// The engine run, shared by the tests of this suite: the reason the engine is missing, or its report.
    static let run = Task<Result<BrowserEngine.Report, any Error>, Never> {
        await rendered.run(clicking: clicks)
    }

    /// The report, or a skip (a failure when the engine is required).
    private func report() async throws -> BrowserEngine.Report {
        try await BrowserEngine.report(of: Self.run)
    }

    /// What the page posted on its own, without a click, while loading and after, leaving out the thief's.
    private static func unprompted(_ report: BrowserEngine.Report) -> [BrowserEngine.Report.Message] {
        TokenThief.withoutThief(report.loadMessages + report.lateMessages)
    }

    /// The message parsed as `render(on:)` does, for the document the engine ran.
    private static func parse(_ message: BrowserEngine.Report.Message) -> Result<ActionClicked, BridgeMessageError> {
        BridgeMessage.parse(message.delivered, actionID: 9, bridge: .standard, token: BridgeToken(rendered.token))
    }

    @Test("the page stays the content: no navigation gets through, no javascript: URL runs, no window opens")
    func pageStays() async throws {
        let report = try await report()
        #expect(report.error == nil)
        #expect(report.loaded)
        for id in Self.clicks {
            #expect(report.click(id)?.delivered == true, "the engine did not deliver the click on #\(id)")
        }
        #expect(report.finalUri == "about:blank")
        #expect(report.markerPresent, "the page must still be the content")
        #expect(report.dialogs == [], "a javascript: URL ran: \(report.dialogs)")
        // What reaches the surface is refused there; what the document's policy stops never gets that far:
        // a script's form.submit() (form-action) and a data: frame (frame-src).
        let attempted = Set(report.navigations.map(\.uri))
        #expect(
            attempted.isSubset(of: [
                "https://evil.example/js-frame", "https://evil.example/replace", "https://evil.example/refresh",
                "about:blank",
            ]),
            "\(attempted)"
        )
        #expect(!attempted.contains { $0.hasPrefix("https://evil.example/form") }, "a form was submitted")
        #expect(!attempted.contains { $0.hasPrefix("data:") || $0.hasPrefix("javascript:") })
        // A frame's own window.open is the only way left to ask for a window; the surface refuses it.
        #expect(Set(report.newWindows).isSubset(of: ["https://evil.example/frame-popup"]), "\(report.newWindows)")
        // window.open stays the bridge's, even after `delete window.open` and an assignment.
        let openResults = TokenThief.withoutThief(report.click("opener")?.messages ?? []).map(\.delivered)
        #expect(openResults == ["open results: null,null,null"])
    }

    @Test("only the user's clicks reach the app; clicks a script makes post nothing")
    func onlyUserClicks() async throws {
        let report = try await report()
        func accepted(_ id: String) -> [ActionClicked] {
            (report.click(id)?.messages ?? []).compactMap { try? Self.parse($0).get() }
        }
        #expect(
            accepted("user-link") == [
                ActionClicked(actionID: 9, href: "https://shop.example.com/spring", status: .target)
            ]
        )
        #expect(
            accepted("product") == [
                ActionClicked(actionID: 9, href: "https://shop.example.com/p/sku-1", status: .product, arg: "sku-1")
            ]
        )
        #expect(accepted("blank-js-link") == [ActionClicked(actionID: 9, status: .target)])
        #expect(accepted("top-data-link") == [ActionClicked(actionID: 9, status: .target)])
        for id in ["navigator", "opener", "frame-opener"] {
            #expect(accepted(id) == [], "clicking #\(id) gave a click")
        }
        // The page clicked two links and a product itself, and forged messages: none of it parses as a click.
        let unprompted = Self.unprompted(report)
        #expect(unprompted.count == 20, "the page's script did not run to the end: \(unprompted.count) messages")
        for message in report.loadMessages + report.lateMessages {
            if case .success(let clicked) = Self.parse(message) {
                Issue.record("the page made a click on its own: \(clicked)")
            }
        }
    }

    @Test("forged messages give a clear error each: no token, wrong type, oversized message, not an object")
    func forgedMessagesAreRefused() async throws {
        let report = try await report()
        let errors = Self.unprompted(report).map { message -> String in
            switch Self.parse(message) {
            case .success(let clicked): "accepted \(clicked)"
            case .failure(let error): Self.kind(of: error)
            }
        }
        // In order: unknown statuses (no token); a 10,000-character status (too large before anything else); a long
        // href and arg (no token); a padded message; a status, href and arg that are not strings; data: and
        // javascript: links (no token); cut-off JSON, null, an array, 2,000 nested arrays; a raw NUL and a lone
        // surrogate; a megabyte of text; a number instead of a string. The page cannot carry the token, so a
        // well-formed message of its own never gets as far as the status and link checks.
        #expect(
            errors == [
                "forged", "forged", "forged", "forged",
                "oversizedMessage", "forged", "forged", "oversizedMessage",
                "missingField(status)", "missingField(href)", "missingField(arg)", "forged",
                "forged", "notAnObject", "notAnObject", "notAnObject", "notAnObject", "notAnObject",
                "oversizedMessage", "notAnObject",
            ]
        )
    }

    @Test("the page cannot forge a click or learn the token, whatever it replaces; the user's clicks still count")
    func tokenStaysSecret() async throws {
        let report = try await report()
        let forgeries = TokenThief.forgeries(in: report)
        #expect(forgeries.map(Self.parse) == Array(repeating: .failure(.forged), count: forgeries.count))
        Self.thief.expectNothingLeaked(report, token: Self.rendered.token)
        // The thief replaced everything before the user clicked: the bridge still posted, with the token.
        let userLink = report.click("user-link")?.messages.compactMap { try? Self.parse($0).get() }
        #expect(userLink == [ActionClicked(actionID: 9, href: "https://shop.example.com/spring", status: .target)])
    }

    @Test("replayed into the render, the engine's messages give only the user's clicks, and error events")
    func replayThroughRender() async throws {
        let report = try await report()
        let rendered = Self.rendered
        #expect(rendered.document.contains(BridgeDocument.contentSecurityPolicy))
        rendered.replay(report)
        #expect(
            rendered.clicks == [
                ActionClicked(actionID: 9, href: "https://shop.example.com/spring", status: .target),
                ActionClicked(actionID: 9, href: "https://shop.example.com/p/sku-1", status: .product, arg: "sku-1"),
                ActionClicked(actionID: 9, status: .target),
                ActionClicked(actionID: 9, status: .target),
            ]
        )
        let events = try await rendered.fixture.events()
        #expect(events.contains { $0.type == "error" }, "the refused messages gave no error event")
        #expect(events.filter { $0.type != "error" }.map(\.type) == ["executed", "target", "product"])
        #expect(events.allSatisfy { $0.properties["href"]?.stringValue?.hasPrefix("javascript:") != true })
        #expect(events.allSatisfy { $0.properties["href"]?.stringValue?.hasPrefix("data:") != true })
    }

    /// The error's case, with the status or field it names.
    private static func kind(of error: BridgeMessageError) -> String {
        switch error {
        case .oversizedMessage: "oversizedMessage"
        case .notAnObject: "notAnObject"
        case .missingField(let name): "missingField(\(name))"
        case .forged: "forged"
        case .unknownStatus(let status): "unknownStatus(\(status.prefix(20)))"
        case .unknownAction(let action): "unknownAction(\(action.prefix(20)))"
        case .oversizedField(let name, _, _): "oversizedField(\(name))"
        case .disallowedHref: "disallowedHref"
        case .invalidArgument(let status, _): "invalidArgument(\(status))"
        case .beforeLoad: "beforeLoad"
        }
    }
}
