import ActuateReporting
import Foundation
import Testing

@testable import ActuatePersonalization

/// Content that tries to get links past the bridge, run in a real engine (WebKitGTK under Xvfb) as `render(on:)`
/// wraps it: links inside a closed shadow root (attached by script, and declared in the markup), links written into
/// a same-origin `about:blank` frame and into a frame whose navigation the surface refused, and a document that
/// `document.open()` replaces (directly, through `Document.prototype`, and through a frame's realm) with links of
/// its own. The user clicks each; every link click must be cancelled by the bridge and reported, or never exist.
///
/// Skipped, with the reason, when the engine is not installed; a failure instead when
/// `ACTUATE_REQUIRE_BROWSER=1` (set by `.ci/run`).
@Suite("Bridge bypasses in a real browser engine")
struct BrowserBridgeBypassTests {
    static let content = #"""
        <div id="actuate-marker">
          <div id="shadow-host" style="display:block;width:320px;height:40px"></div>
          <div id="declarative-host" style="display:block;width:320px;height:40px"><template shadowrootmode="closed"><a href="https://evil.example/declarative" style="display:block;width:320px;height:40px">Declared</a></template></div>
          <div id="borrowed-host" style="display:block;width:320px;height:40px"></div>
          <div id="frames"></div>
          <div id="reopener" style="height:30px">Replace the document</div>
          <a id="user-link" href="https://shop.example.com/after">After</a>
        </div>
        <script>
        (function () {
          var box = "display:block;width:320px;height:60px;margin:0";
          var root = document.getElementById("shadow-host").attachShadow({ mode: "closed" });
          root.innerHTML = '<a href="https://shop.example.com/shadow" style="' + box + '"><span>In a closed root</span></a>';

          function frame(id, src) {
            var element = document.createElement("iframe");
            element.id = id;
            if (src) { element.src = src; }
            element.setAttribute("style", "border:0;width:320px;height:60px");
            document.getElementById("frames").appendChild(element);
            var inner = element.contentDocument;
            try { inner.open(); inner.write("<b>replaced</b>"); inner.close(); } catch (e) {}
            inner.body.innerHTML = '<a href="https://shop.example.com/' + id + '" style="' + box + '">In a frame</a>';
            return element;
          }
          frame("blank-frame", null);
          var refused = frame("refused-frame", "https://frames.example/refused");
          var borrowed = refused.contentWindow.Element.prototype.attachShadow;
          var other = borrowed.call(document.getElementById("borrowed-host"), { mode: "closed" });
          other.innerHTML = '<a href="https://shop.example.com/borrowed" style="' + box + '">Borrowed</a>';

          document.getElementById("reopener").addEventListener("click", function () {
            setTimeout(function () {
              var links = '<a id="rewritten" href="https://evil.example/rewritten">Rewritten</a>';
              try { document.open(); document.write(links); document.close(); } catch (e) {}
              try { Document.prototype.open.call(document); Document.prototype.write.call(document, links); } catch (e) {}
              try {
                var other = refused.contentWindow.Document.prototype;
                other.open.call(document);
                other.write.call(document, links);
              } catch (e) {}
            }, 10);
          });
        })();
        </script>
        """#

    /// The elements the user clicks, in order; `rewritten` exists only if the document was replaced.
    static let clicks = [
        "shadow-host", "declarative-host", "borrowed-host", "blank-frame", "refused-frame", "reopener", "rewritten",
        "user-link",
    ]

    static let rendered = RenderedContentAction(id: 11, name: "Bypasses", content: content)

    static let run = Task<Result<BrowserEngine.Report, any Error>, Never> {
        await rendered.run(clicking: clicks)
    }

    private func report() async throws -> BrowserEngine.Report {
        try await BrowserEngine.report(of: Self.run)
    }

    /// The clicks the messages posted for the click on `id` give, parsed as `render(on:)` parses them.
    private static func accepted(_ id: String, in report: BrowserEngine.Report) -> [ActionClicked] {
        (report.click(id)?.messages ?? []).compactMap {
            try? BridgeMessage.parse($0.delivered, actionID: 11, bridge: .standard, token: BridgeToken(rendered.token))
                .get()
        }
    }

    @Test("a link inside a closed shadow root is cancelled and reported; a declared closed root stays inert")
    func closedShadowRoots() async throws {
        let report = try await report()
        #expect(report.error == nil)
        #expect(report.click("shadow-host")?.navigations == [], "the link in the closed root navigated")
        #expect(
            Self.accepted("shadow-host", in: report) == [
                ActionClicked(actionID: 11, href: "https://shop.example.com/shadow", status: .target)
            ]
        )
        // A closed root attached with another realm's attachShadow: reading the frame's contentWindow guarded it.
        #expect(report.click("borrowed-host")?.navigations == [], "the link in the borrowed closed root navigated")
        #expect(
            Self.accepted("borrowed-host", in: report) == [
                ActionClicked(actionID: 11, href: "https://shop.example.com/borrowed", status: .target)
            ]
        )
        #expect(report.click("declarative-host")?.navigations == [], "the link in the declared root navigated")
        #expect(Self.accepted("declarative-host", in: report) == [])
        #expect(!report.navigations.contains { $0.uri.hasPrefix("https://evil.example/declarative") })
    }

    @Test(
        "links written into a same-origin frame are cancelled and reported, whether the frame is about:blank or refused"
    )
    func sameOriginFrames() async throws {
        let report = try await report()
        for id in ["blank-frame", "refused-frame"] {
            #expect(report.click(id)?.navigations == [], "the link in #\(id) navigated")
            #expect(
                Self.accepted(id, in: report) == [
                    ActionClicked(actionID: 11, href: "https://shop.example.com/\(id)", status: .target)
                ],
                "#\(id)"
            )
        }
        // The frames' own document.open and write were refused too: the links the page put in are all there is.
        #expect(!report.navigations.contains { $0.uri.hasPrefix("https://shop.example.com/") })
    }

    @Test("document.open() cannot replace the document, in any realm; the bridge still reports the user's clicks")
    func documentOpen() async throws {
        let report = try await report()
        #expect(report.markerPresent, "the document was replaced")
        #expect(report.click("rewritten")?.error == "no such element", "a rewritten link appeared")
        #expect(!report.navigations.contains { $0.uri.hasPrefix("https://evil.example/") }, "\(report.navigations)")
        #expect(
            Self.accepted("user-link", in: report) == [
                ActionClicked(actionID: 11, href: "https://shop.example.com/after", status: .target)
            ]
        )
        #expect(report.click("user-link")?.navigations == [])
    }

    @Test("the documents of content actions and content blocks defuse declarative shadow roots")
    func declarativeRootsAreDefused() throws {
        let document = Self.rendered.document
        #expect(!document.contains("<template shadowrootmode="))
        #expect(document.contains("<template data-actuate-defused-shadowrootmode=\"closed\">"))
        let block = ContentBlock.test(
            "shadow",
            html: #"<div><TEMPLATE ShadowRootMode="open"><a href="https://x.example/">x</a></TEMPLATE></div>"#
        )
        let blockDocument = try ContentBlockDocument.html(
            for: block,
            assets: [:],
            token: BridgeToken("00"),
            maxBytes: 1 << 20
        )
        #expect(!blockDocument.lowercased().contains("<template shadowrootmode"))
        #expect(blockDocument.contains(#"<TEMPLATE data-actuate-defused-shadowrootmode="open">"#))
    }
}
