import Foundation

/// Turns a content block into the complete HTML document an ``HTMLSurface`` shows: the block's HTML with its
/// assets inlined as `data:` URLs, in a ``BridgeDocument`` of the content-block vocabulary (its click and close
/// messages, posted through `window.webkit.messageHandlers.actuateContentBlock`).
///
/// A click a script makes, with `element.click()` or `dispatchEvent`, cancelable or not, is not trusted: a link it
/// targets does not navigate, and nothing is posted. A script can still ask to navigate in other ways (setting
/// `location`): the surface refuses that, as `WebKitHTMLSurface` refuses every navigation but its own document's
/// load; `SimulatedHTMLSurface` runs no script and never leaves the document it loaded.
enum ContentBlockDocument {
    /// The message handler the bridge script posts to.
    static let bridgeName = "actuateContentBlock"

    /// The bridge of content blocks whose clicks may carry links in `schemes`: handler ``bridgeName``, and the
    /// limits of every bridge (``ContentBridge/init(handlerName:allowedSchemes:maximumHrefLength:maximumArgumentLength:maximumMessageBytes:)``).
    /// - Parameter schemes: The link schemes a click may carry, as `ContentBlockConfiguration` allows them.
    static func bridge(allowing schemes: Set<String>) -> ContentBridge {
        ContentBridge(handlerName: bridgeName, allowedSchemes: schemes)
    }

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

    /// The full document for `block`, with each asset's URL replaced by its `data:` URL, whose bridge puts `token`
    /// in every message.
    /// - Throws: ``ContentBlockError/renderFailed(reason:)`` when the block's HTML with its assets inlined would be
    ///   larger than `maxBytes`: a block that names one asset in many places is refused before it is built.
    static func html(
        for block: ContentBlock,
        assets: [String: ContentBlockAsset],
        token: BridgeToken,
        maxBytes: Int
    ) throws(ContentBlockError) -> String {
        let bytes = inlinedBytes(of: block.html, assets: assets)
        guard bytes <= maxBytes else {
            throw .renderFailed(
                reason: "with its assets inlined the block would be \(bytes) bytes, more than the limit of \(maxBytes)"
            )
        }
        var body = block.html
        for (url, asset) in assets.sorted(by: { $0.key.count > $1.key.count }) {
            body = body.replacingOccurrences(of: url, with: asset.dataURL)
        }
        let document = BridgeDocument(bridge: bridge(allowing: []), token: token, vocabulary: .contentBlock)
        return document.wrap(body)
    }

    /// The size of `html` in bytes once every place an asset's URL appears holds its `data:` URL, counted without
    /// building it (an upper bound when one URL is part of another). Saturates at `Int.max`.
    static func inlinedBytes(of html: String, assets: [String: ContentBlockAsset]) -> Int {
        var total = html.utf8.count
        for (url, asset) in assets where !url.isEmpty {
            let places = html.ranges(of: url).count
            let encoded = (asset.data.count + 2) / 3 * 4
            let dataURL = "data:".utf8.count + asset.mimeType.utf8.count + ";base64,".utf8.count + encoded
            let growth = dataURL - url.utf8.count
            let (added, overflow) = places.multipliedReportingOverflow(by: max(growth, 0))
            guard !overflow, total <= Int.max - added else { return Int.max }
            total += added
        }
        return total
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
}
