import Foundation

/// Wraps HTML content in a complete document with a viewport, a content security policy, a navigation guard and
/// the click bridge that ``ContentBridge`` describes.
struct ContentHTMLDocument {
    let bridge: ContentBridge

    /// The document's content security policy: no `<base>` to redirect relative links, no form submission (a
    /// script's `form.submit()` skips the submit event the bridge cancels), no plugins, and frames only from
    /// `https:`, so no `data:` or `javascript:` frame runs outside the bridge's reach. The surface still refuses
    /// every navigation and new window; this keeps them from being attempted.
    static let contentSecurityPolicy = "base-uri 'none'; form-action 'none'; object-src 'none'; frame-src https:"

    /// The complete document around `content`.
    func wrap(_ content: String) -> String {
        """
        <!DOCTYPE html>
        <html>
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(Self.contentSecurityPolicy)">
        <meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1, user-scalable=no">
        <style>html, body { margin: 0; padding: 0; -webkit-text-size-adjust: 100%; }</style>
        <script>
        \(script)
        </script>
        </head>
        <body>
        \(content)
        </body>
        </html>
        """
    }

    /// The bridge script. It runs before any script of the content, captures the message handler and the
    /// functions it relies on, and registers its listeners first, so the content cannot take them away.
    ///
    /// Only clicks the user made are reported: a script's `element.click()` or `dispatchEvent` gives an event
    /// that is not trusted, which the bridge cancels (so a link does not navigate) and does not report.
    /// `window.open` is replaced, for good, by a function that opens nothing.
    var script: String {
        let schemes = bridge.allowedSchemes.sorted().map { "\($0):" }
        return """
            (function () {
              "use strict";
              var config = {
                handler: \(Self.jsonLiteral(bridge.handlerName)),
                schemes: \(Self.jsonLiteral(schemes)),
                maxHref: \(bridge.maximumHrefLength)
              };
              var marks = "[data-actuate-close],[data-actuate-product],[data-actuate-article],[data-actuate-target]";
              var handlers = window.webkit && window.webkit.messageHandlers;
              var handler = handlers ? handlers[config.handler] : null;
              var stringify = JSON.stringify;
              var URLClass = window.URL;
              function post(status, href, arg) {
                if (!handler) { return; }
                handler.postMessage(stringify({ status: status, href: href, arg: arg }));
              }
              function elementOf(node) {
                while (node && node.nodeType !== 1) { node = node.parentNode; }
                return node && node.closest ? node : null;
              }
              function safeHref(link) {
                if (!link) { return ""; }
                var raw = link.getAttribute("href");
                if (raw === null) { return ""; }
                var url;
                try { url = new URLClass(raw, document.baseURI); } catch (error) { return ""; }
                if (config.schemes.indexOf(url.protocol.toLowerCase()) < 0) { return ""; }
                return url.href.length > config.maxHref ? "" : url.href;
              }
              function report(element) {
                var marked = element.closest(marks);
                var link = element.closest("a[href],area[href]");
                if (marked) {
                  if (marked.hasAttribute("data-actuate-close")) {
                    post("close", "", marked.getAttribute("data-actuate-close"));
                  } else if (marked.hasAttribute("data-actuate-product")) {
                    post("product", safeHref(link), marked.getAttribute("data-actuate-product"));
                  } else if (marked.hasAttribute("data-actuate-article")) {
                    post("article", safeHref(link), marked.getAttribute("data-actuate-article"));
                  } else {
                    post("target", safeHref(link), marked.getAttribute("data-actuate-target"));
                  }
                  return true;
                }
                if (link) {
                  post("target", safeHref(link), "");
                  return true;
                }
                return false;
              }
              function onClick(event) {
                var element = elementOf(event.target);
                if (!element) { return; }
                if (element.closest("a,area")) { event.preventDefault(); }
                if (!event.isTrusted) { return; }
                if (event.type === "click" && report(element)) { event.preventDefault(); }
              }
              window.addEventListener("click", onClick, true);
              window.addEventListener("auxclick", onClick, true);
              window.addEventListener("submit", function (event) { event.preventDefault(); }, true);
              var openNothing = function () { return null; };
              try {
                Object.defineProperty(window, "open", { value: openNothing, writable: false, configurable: false });
              } catch (error) {
                window.open = openNothing;
              }
            })();
            """
    }

    /// `value` as a JSON literal, safe inside a script element.
    static func jsonLiteral<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        // `</script>` and `<!--` must not appear inside a script element.
        return text.replacingOccurrences(of: "<", with: "\\u003c")
    }
}
