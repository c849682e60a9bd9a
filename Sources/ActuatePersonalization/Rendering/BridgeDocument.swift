import Foundation

/// The one builder of the documents content actions and content blocks are shown in: the content, wrapped in a
/// complete document with a viewport, a content security policy, a navigation guard and the click bridge, as the
/// first script of its `<head>` (see ``BridgeScript``).
///
/// The two differ only in their ``Vocabulary``, what a click means and so what the bridge posts: a content
/// action's clicks follow the table in ``ContentBridge``; a content block's post `{"action": "close"}` for an
/// element with a `data-actuate-close` attribute or inside one, and `{"action": "click", "link": URL, "text": …}`
/// for a link (`<a href>`) or an element with `data-actuate-link="URL"`. A block's reported clicks are also kept
/// from the page's own listeners. ``BridgeMessage`` parses what either posts.
struct BridgeDocument {
    /// What the clicks in a document mean, and so what its bridge posts.
    enum Vocabulary: Sendable, Hashable {
        /// A content action's: `status`, `href` and `arg` (``ActionClicked``).
        case contentAction
        /// A content block's: `action` (`click` or `close`), `link` and `text` (``ContentBlockBridgeMessage``).
        case contentBlock
    }

    /// The bridge's handler name, link schemes and limits.
    let bridge: ContentBridge
    /// The secret the bridge puts in every message; a fresh one per rendered document.
    let token: BridgeToken
    /// What a click reports.
    let vocabulary: Vocabulary

    /// The document's content security policy.
    ///
    /// - Nothing from the network: `default-src 'none'` and `connect-src 'none'` (no `fetch`, `XMLHttpRequest`,
    ///   `sendBeacon`, `WebSocket` or `EventSource`), scripts and styles only inline (no `<script src>` or
    ///   stylesheet link to carry a beacon), images, fonts and media only as `data:` URLs (content blocks inline
    ///   their assets that way). So the content cannot tell a server anything, whatever the consent.
    /// - No `<base>` to redirect relative links, no form submission (a script's `form.submit()` skips the submit
    ///   event the bridge cancels), no plugins, and frames only from `https:`, so no `data:` or `javascript:` frame
    ///   runs outside the bridge's reach. The surface still refuses every navigation and new window; this keeps
    ///   them from being attempted.
    static let contentSecurityPolicy = contentSecurityPolicy(imageSources: "data:")

    /// The policy with `img-src` set to `imageSources`; ``ContentBridge/allowsHTTPSImages`` adds `https:`.
    static func contentSecurityPolicy(imageSources: String) -> String {
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src \(imageSources); "
            + "font-src data:; media-src data:; connect-src 'none'; base-uri 'none'; form-action 'none'; "
            + "object-src 'none'; frame-src https:"
    }

    /// This document's policy: ``contentSecurityPolicy``, with `https:` images when the bridge allows them.
    var policy: String {
        bridge.allowsHTTPSImages ? Self.contentSecurityPolicy(imageSources: "data: https:") : Self.contentSecurityPolicy
    }

    /// The complete document around `content`.
    func wrap(_ content: String) -> String {
        """
        <!DOCTYPE html>
        <html>
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(policy)">
        <meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1, user-scalable=no">
        <style>html, body { margin: 0; padding: 0; -webkit-text-size-adjust: 100%; }</style>
        <script>
        \(script)
        </script>
        </head>
        <body>
        \(BridgeScript.defusingDeclarativeShadowRoots(content))
        </body>
        </html>
        """
    }

    /// The bridge script (see ``BridgeScript``): it runs before any script of the content, keeps the token out
    /// of the content's reach, and reports only clicks the user made. `window.open` is replaced, for good, by a
    /// function that opens nothing.
    var script: String {
        switch vocabulary {
        case .contentAction:
            BridgeScript(
                handlerName: bridge.handlerName,
                token: token,
                reporting: actionReporting,
                stopsReportedClicks: false
            )
            .text
        case .contentBlock:
            BridgeScript(
                handlerName: bridge.handlerName,
                token: token,
                reporting: Self.blockReporting,
                stopsReportedClicks: true
            )
            .text
        }
    }

    /// What a content block's click reports: the nearest element that closes the block or links somewhere. A
    /// close wins over a link on the same element; `data-actuate-link` wins over `href`.
    private static let blockReporting = """
          var actionable = "[data-actuate-close],[data-actuate-link]:not([data-actuate-link='']),a[href]:not([href=''])";
          function report(element) {
            var marked = nearest(element, actionable);
            if (!marked) { return false; }
            if (has(marked, "data-actuate-close")) {
              post({ action: "close" });
              return true;
            }
            var link = attribute(marked, "data-actuate-link") || attribute(marked, "href");
            post({ action: "click", link: link, text: trimmed(textOf(marked), 500) });
            return true;
          }
        """

    /// What a content action's click reports; see the table in ``ContentBridge``.
    private var actionReporting: String {
        let schemes = bridge.reportedSchemes.sorted().map { "\($0):" }
        return """
              var schemes = \(BridgeScript.jsonLiteral(schemes));
              var maxHref = \(bridge.maximumHrefLength);
              var marks = "[data-actuate-close],[data-actuate-product],[data-actuate-article],[data-actuate-target]";
              function isAllowed(protocol) {
                for (var index = 0; index < schemes.length; index += 1) {
                  if (schemes[index] === protocol) { return true; }
                }
                return false;
              }
              function safeHref(link) {
                if (!link) { return ""; }
                var raw = attribute(link, "href");
                if (raw === null) { return ""; }
                var url = resolvedURL(raw);
                if (!url || !isAllowed(url.protocol)) { return ""; }
                return url.href.length > maxHref ? "" : url.href;
              }
              function report(element) {
                var marked = nearest(element, marks);
                var link = nearest(element, "a[href],area[href]");
                if (marked) {
                  if (has(marked, "data-actuate-close")) {
                    post({ status: "close", href: "", arg: attribute(marked, "data-actuate-close") });
                  } else if (has(marked, "data-actuate-product")) {
                    post({ status: "product", href: safeHref(link), arg: attribute(marked, "data-actuate-product") });
                  } else if (has(marked, "data-actuate-article")) {
                    post({ status: "article", href: safeHref(link), arg: attribute(marked, "data-actuate-article") });
                  } else {
                    post({ status: "target", href: safeHref(link), arg: attribute(marked, "data-actuate-target") });
                  }
                  return true;
                }
                if (link) {
                  post({ status: "target", href: safeHref(link), arg: "" });
                  return true;
                }
                return false;
              }
            """
    }
}
