import Foundation

/// The bridge script of a loaded document, read from its text as far as a simulated click needs: the token it
/// holds, and which of the two reporting dialects it speaks (content actions' `status`/`href`/`arg` messages, or
/// content blocks' `action`/`link`/`text` messages) with their settings.
///
/// The script is the document's first script, as the bridge requires. The token is the JSON string literal of
/// its `var token = …;`, decoded as the script's own JavaScript would evaluate it.
struct SimulatedBridge {
    enum Dialect {
        /// Content actions: link schemes as `"https:"`, and the longest `href` reported.
        case contentAction(schemes: Set<String>, maximumHrefLength: Int)
        /// Content blocks.
        case contentBlock
    }

    let token: String
    let dialect: Dialect

    init?(reading document: SimulatedDocument) {
        guard let script = document.scripts.first,
            let token = Self.stringLiteral(after: "var token = ", in: script)
        else { return nil }
        self.token = token
        if let schemes = Self.jsonValue([String].self, after: "var schemes = ", in: script) {
            let maximum = Self.jsonValue(Int.self, after: "var maxHref = ", in: script) ?? Int.max
            dialect = .contentAction(schemes: Set(schemes), maximumHrefLength: maximum)
        } else if script.contains("action: \"click\"") {
            dialect = .contentBlock
        } else {
            return nil
        }
    }

    /// The message the bridge posts for a user's click on `element`, or nil when it reports nothing.
    func message(forClickOn element: Int, in document: SimulatedDocument) -> String? {
        switch dialect {
        case .contentAction(let schemes, let maximumHrefLength):
            return contentActionMessage(element, document, schemes: schemes, maximumHrefLength: maximumHrefLength)
        case .contentBlock:
            return contentBlockMessage(element, document)
        }
    }

    private func contentActionMessage(
        _ element: Int,
        _ document: SimulatedDocument,
        schemes: Set<String>,
        maximumHrefLength: Int
    ) -> String? {
        let marks = ["data-actuate-close", "data-actuate-product", "data-actuate-article", "data-actuate-target"]
        let marked = document.nearest(element) { candidate in marks.contains { candidate.has($0) } }
        let link = document.nearest(element) { ($0.tag == "a" || $0.tag == "area") && $0.has("href") }
        func safeHref() -> String {
            guard let link, let raw = document.elements[link].attributes["href"],
                let url = Self.resolved(raw), schemes.contains(url.scheme + ":"),
                url.href.utf16.count <= maximumHrefLength
            else { return "" }
            return url.href
        }
        if let marked {
            let attributes = document.elements[marked].attributes
            if let close = attributes["data-actuate-close"] {
                return post([("status", "close"), ("href", ""), ("arg", close)])
            }
            if let product = attributes["data-actuate-product"] {
                return post([("status", "product"), ("href", safeHref()), ("arg", product)])
            }
            if let article = attributes["data-actuate-article"] {
                return post([("status", "article"), ("href", safeHref()), ("arg", article)])
            }
            return post([("status", "target"), ("href", safeHref()), ("arg", attributes["data-actuate-target"] ?? "")])
        }
        if link != nil {
            return post([("status", "target"), ("href", safeHref()), ("arg", "")])
        }
        return nil
    }

    private func contentBlockMessage(_ element: Int, _ document: SimulatedDocument) -> String? {
        let actionable = document.nearest(element) { candidate in
            candidate.has("data-actuate-close") || !(candidate.attributes["data-actuate-link"] ?? "").isEmpty
                || (candidate.tag == "a" && !(candidate.attributes["href"] ?? "").isEmpty)
        }
        guard let actionable else { return nil }
        let marked = document.elements[actionable]
        if marked.has("data-actuate-close") {
            return post([("action", "close")])
        }
        let linkMark = marked.attributes["data-actuate-link"] ?? ""
        let link = linkMark.isEmpty ? marked.attributes["href"] ?? "" : linkMark
        let text = String(marked.text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(500))
        return post([("action", "click"), ("link", link), ("text", text)])
    }

    /// The JSON text the bridge posts: `fields` in order, then the token, every value a string.
    private func post(_ fields: [(String, String)]) -> String {
        let members = (fields + [("token", token)]).map { "\(Self.literal($0.0)):\(Self.literal($0.1))" }
        return "{" + members.joined(separator: ",") + "}"
    }

    private static func literal(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }

    /// `raw` resolved as the bridge's `new URL(raw, baseURI)` resolves it in a page without a base URL: absolute
    /// URLs only, with the scheme lowercased, and for `http(s)` the host lowercased and an empty path made `/`.
    static func resolved(_ raw: String) -> (href: String, scheme: String)? {
        let trimmed = raw.trimmingCharacters(in: CharacterSet(charactersIn: " \t\n\r\u{0C}"))
        guard let colon = trimmed.firstIndex(of: ":") else { return nil }
        let scheme = trimmed[..<colon].lowercased()
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
            scheme.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || "0123456789+-.".unicodeScalars.contains($0))
            }),
            URL(string: trimmed) != nil
        else { return nil }
        var rest = String(trimmed[trimmed.index(after: colon)...])
        if scheme == "http" || scheme == "https" {
            guard rest.hasPrefix("//") else { return nil }
            let afterSlashes = rest.dropFirst(2)
            let hostEnd = afterSlashes.firstIndex { "/?#".contains($0) } ?? afterSlashes.endIndex
            let host = afterSlashes[..<hostEnd].lowercased()
            var tail = String(afterSlashes[hostEnd...])
            if !tail.hasPrefix("/") { tail = "/" + tail }
            rest = "//" + host + tail
        }
        return (scheme + ":" + rest, scheme)
    }

    /// The string literal that follows `marker` in `script`, decoded as JSON.
    private static func stringLiteral(after marker: String, in script: String) -> String? {
        jsonValue(String.self, after: marker, in: script)
    }

    /// The JSON value that follows `marker` in `script`, up to the `;` that ends the statement.
    private static func jsonValue<Value: Decodable>(
        _ type: Value.Type,
        after marker: String,
        in script: String
    )
        -> Value?
    {
        guard let start = script.range(of: marker)?.upperBound,
            let end = script[start...].firstIndex(of: ";")
        else { return nil }
        return try? JSONDecoder().decode(Value.self, from: Data(script[start..<end].utf8))
    }
}
