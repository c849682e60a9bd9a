import Foundation
import Testing

@testable import ActuatePersonalization

/// Content that tries to tell a server something, run in a real engine (WebKitGTK under Xvfb): `fetch`,
/// `XMLHttpRequest`, `navigator.sendBeacon`, `EventSource`, `WebSocket`, images made by script and by markup, a
/// CSS background, a web font, a video poster, an audio source, a stylesheet, a script and a prefetch, all to a
/// loopback server the test runs. Under the document's content security policy none of them arrives; the same
/// document without the policy shows the server was reachable and the requests would have arrived.
///
/// Skipped, with the reason, when the engine is not installed; a failure instead when
/// `ACTUATE_REQUIRE_BROWSER=1` (set by `.ci/run`).
@Suite("Content security policy in a real browser engine")
struct BrowserContentPolicyTests {
    /// The content, sending to `base` (`http://127.0.0.1:PORT`).
    static func content(base: String) -> String {
        """
        <div id="actuate-marker">
          <style>
            @font-face { font-family: "Beacon"; src: url("\(base)/beacon/font"); }
            #styled { background-image: url("\(base)/beacon/css"); font-family: "Beacon"; width: 40px; height: 40px; }
          </style>
          <link rel="stylesheet" href="\(base)/beacon/style">
          <link rel="prefetch" href="\(base)/beacon/prefetch">
          <div id="styled">text</div>
          <img src="\(base)/beacon/img" width="1" height="1">
          <video poster="\(base)/beacon/poster" width="10" height="10"></video>
          <audio src="\(base)/beacon/audio" preload="auto"></audio>
          <script src="\(base)/beacon/script"></script>
        </div>
        <script>
        (function () {
          var base = "\(base)";
          try { fetch(base + "/beacon/fetch").catch(function () {}); } catch (e) {}
          try { fetch(base + "/v1/content-blocks", { method: "POST", body: "{}" }).catch(function () {}); } catch (e) {}
          try { navigator.sendBeacon(base + "/v1/content-blocks", "{}"); } catch (e) {}
          try { var request = new XMLHttpRequest(); request.open("GET", base + "/beacon/xhr"); request.send(); } catch (e) {}
          try { new EventSource(base + "/beacon/events"); } catch (e) {}
          try { new WebSocket(base.replace("http:", "ws:") + "/beacon/socket"); } catch (e) {}
          try { new Image().src = base + "/beacon/image"; } catch (e) {}
          window.webkit.messageHandlers.actuate.postMessage("beacons attempted");
        })();
        </script>
        """
    }

    @Test("no fetch, beacon, image, font, stylesheet or script request reaches a server")
    func nothingLeaves() async throws {
        try await ContentServer.with { server in
            let rendered = RenderedContentAction(
                id: 12,
                name: "Beacons",
                content: Self.content(base: "http://127.0.0.1:\(server.port)")
            )
            let document = rendered.document
            #expect(document.contains(BridgeDocument.contentSecurityPolicy))
            let report = try await BrowserEngine.report(of: Task { await rendered.run(clicking: []) })
            #expect(report.error == nil)
            #expect(report.loaded)
            #expect(report.allMessages.map(\.delivered).contains("beacons attempted"))
            #expect(try await server.stats().requests == [:], "requests reached the server")

            // The same document without the policy: the requests arrive, so the server was reachable.
            let open = document.replacingOccurrences(of: BridgeDocument.contentSecurityPolicy, with: "")
            let control = try await BrowserEngine.report(
                of: Task { await BrowserEngine.runIfAvailable(html: open, handler: "actuate", clicks: []) }
            )
            #expect(control.error == nil)
            let reached = try await server.stats().requests
            for path in ["/beacon/fetch", "/beacon/xhr", "/beacon/image", "/beacon/img", "/v1/content-blocks"] {
                #expect(reached[path, default: 0] > 0, "without the policy, \(path) did not arrive: \(reached)")
            }
        }
    }
}
