import Foundation

/// Turns a content block into the complete HTML document an ``HTMLSurface`` shows.
///
/// The document has a viewport meta tag, the block's HTML with its assets inlined as `data:` URLs, and a
/// bridge script. The script captures clicks before the page sees them, blocks navigation, and posts one
/// JSON message per click the user made through `window.webkit.messageHandlers.actuateContentBlock.postMessage`
/// (a click a script makes, with `element.click()` or `dispatchEvent`, is not trusted: a link it targets does not
/// navigate, and nothing is posted):
/// - an element with a `data-actuate-close` attribute, or inside one, posts `{"action": "close"}`;
/// - a link (`<a href>`), or an element with `data-actuate-link="URL"`, posts
///   `{"action": "click", "link": "URL", "text": "the element's text"}`.
enum ContentBlockDocument {
    /// The message handler the bridge script posts to.
    static let bridgeName = "actuateContentBlock"

    /// The URLs of the assets a block needs before it can be shown: its `assets`, then the `http(s)` URLs in
    /// its HTML's `src` attributes, each once.
    static func assetURLs(of block: ContentBlock) -> [URL] {
        var urls = block.assets
        let pattern = #/[sS][rR][cC]\s*=\s*(?:"(https?://[^"]+)"|'(https?://[^']+)')/#
        for match in block.html.matches(of: pattern) {
            guard let text = match.output.1 ?? match.output.2, let url = URL(string: String(text)) else { continue }
            urls.append(url)
        }
        var seen = Set<String>()
        return urls.filter { seen.insert($0.absoluteString).inserted }
    }

    /// The full document for `block`, with each asset's URL replaced by its `data:` URL.
    static func html(for block: ContentBlock, assets: [String: ContentBlockAsset]) -> String {
        var body = block.html
        for (url, asset) in assets.sorted(by: { $0.key.count > $1.key.count }) {
            body = body.replacingOccurrences(of: url, with: asset.dataURL)
        }
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1">
            </head><body>
            \(body)
            <script>\(bridgeScript)</script>
            </body></html>
            """
    }

    /// The text of the first link in `block` whose target is `url`, for clicks that custom views report.
    static func linkText(for url: String, in block: ContentBlock) -> String? {
        for quote in ["\"", "'"] {
            guard let attribute = block.html.range(of: "href=\(quote)\(url)\(quote)"),
                let tagEnd = block.html[attribute.upperBound...].firstIndex(of: ">")
            else { continue }
            let rest = block.html[block.html.index(after: tagEnd)...]
            let inner = rest.range(of: "</a>").map { rest[..<$0.lowerBound] } ?? rest
            let text = stripTags(String(inner))
            return text.isEmpty ? nil : text
        }
        return nil
    }

    private static func stripTags(_ html: String) -> String {
        var text = ""
        var inTag = false
        for character in html {
            switch character {
            case "<": inTag = true
            case ">": inTag = false
            default: if !inTag { text.append(character) }
            }
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static let bridgeScript = """
        (function () {
          function post(message) {
            try { window.webkit.messageHandlers.\(bridgeName).postMessage(JSON.stringify(message)); } catch (e) {}
          }
          document.addEventListener("click", function (event) {
            if (!event.isTrusted) {
              var target = event.target && event.target.closest ? event.target.closest("a[href]") : null;
              if (target) { event.preventDefault(); }
              return;
            }
            for (var node = event.target; node && node !== document; node = node.parentNode) {
              if (!node.getAttribute) { continue; }
              if (node.hasAttribute("data-actuate-close")) {
                event.preventDefault(); event.stopPropagation();
                post({ action: "close" });
                return;
              }
              var link = node.getAttribute("data-actuate-link") || (node.tagName === "A" ? node.getAttribute("href") : null);
              if (link) {
                event.preventDefault(); event.stopPropagation();
                post({ action: "click", link: link, text: (node.textContent || "").trim().slice(0, 500) });
                return;
              }
            }
          }, true);
        })();
        """
}
