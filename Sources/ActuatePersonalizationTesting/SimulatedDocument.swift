/// An HTML document parsed as far as a simulated click needs: its elements, each with its tag, attributes,
/// parent and text content, and the text of its scripts.
///
/// The parser is forgiving, as a browser is: it skips comments and declarations, decodes the common character
/// references, treats void elements (`br`, `img`, `input`, …) and `/>` as having no content, keeps the text of
/// `script` and `style` raw, and closes the open elements up to the one an end tag names (an end tag nothing
/// opened is ignored).
struct SimulatedDocument: Sendable {
    struct Element: Sendable {
        /// The tag name, lowercase.
        var tag: String
        /// The attributes, names lowercase, values with character references decoded.
        var attributes: [String: String]
        /// The index of the parent element, or nil for a top-level element.
        var parent: Int?
        /// The element's text content: the text of all its descendants.
        var text: String

        func has(_ name: String) -> Bool { attributes[name] != nil }
    }

    private(set) var elements: [Element] = []
    /// The text of each `<script>` element, in document order.
    private(set) var scripts: [String] = []

    private static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
    ]
    private static let rawTextElements: Set<String> = ["script", "style", "textarea", "title"]

    init(parsing html: String) {
        let characters = Array(html)
        var index = 0
        var open: [Int] = []
        var pendingText = ""

        func flushText() {
            guard !pendingText.isEmpty else { return }
            let decoded = Self.decodeReferences(pendingText)
            for element in open { elements[element].text += decoded }
            pendingText = ""
        }
        func starts(with prefix: String, at position: Int) -> Bool {
            let scalars = Array(prefix)
            guard position + scalars.count <= characters.count else { return false }
            for offset in 0..<scalars.count where characters[position + offset].lowercased() != String(scalars[offset])
            {
                return false
            }
            return true
        }
        func skip(past terminator: String, from position: Int) -> Int {
            var position = position
            while position < characters.count, !starts(with: terminator, at: position) { position += 1 }
            return min(characters.count, position + terminator.count)
        }

        while index < characters.count {
            let character = characters[index]
            guard character == "<", index + 1 < characters.count else {
                pendingText.append(character)
                index += 1
                continue
            }
            let next = characters[index + 1]
            if starts(with: "<!--", at: index) {
                flushText()
                index = skip(past: "-->", from: index + 4)
            } else if next == "!" || next == "?" {
                flushText()
                index = skip(past: ">", from: index + 2)
            } else if next == "/" {
                flushText()
                var position = index + 2
                var name = ""
                while position < characters.count, characters[position] != ">", !characters[position].isWhitespace {
                    name.append(characters[position])
                    position += 1
                }
                index = skip(past: ">", from: position)
                let tag = name.lowercased()
                if let depth = open.lastIndex(where: { elements[$0].tag == tag }) {
                    open.removeSubrange(depth...)
                }
            } else if next.isLetter {
                flushText()
                var position = index + 1
                let (tag, attributes, selfClosing, end) = Self.parseTag(characters, from: &position)
                index = end
                elements.append(Element(tag: tag, attributes: attributes, parent: open.last, text: ""))
                let element = elements.count - 1
                if Self.rawTextElements.contains(tag) {
                    var position = index
                    while position < characters.count, !starts(with: "</\(tag)", at: position) { position += 1 }
                    let raw = String(characters[index..<position])
                    let text = tag == "script" || tag == "style" ? raw : Self.decodeReferences(raw)
                    for ancestor in open + [element] { elements[ancestor].text += text }
                    if tag == "script" { scripts.append(raw) }
                    index = skip(past: ">", from: position)
                } else if !selfClosing, !Self.voidElements.contains(tag) {
                    open.append(element)
                }
            } else {
                pendingText.append(character)
                index += 1
            }
        }
        flushText()
    }

    /// Parses a start tag from just after its `<`; returns its name, attributes, whether it ends with `/>`, and
    /// the position after its `>`.
    private static func parseTag(
        _ characters: [Character],
        from position: inout Int
    ) -> (String, [String: String], Bool, Int) {
        var name = ""
        while position < characters.count, !characters[position].isWhitespace, characters[position] != ">",
            characters[position] != "/"
        {
            name.append(characters[position])
            position += 1
        }
        var attributes: [String: String] = [:]
        var selfClosing = false
        while position < characters.count {
            let character = characters[position]
            if character.isWhitespace {
                position += 1
            } else if character == ">" {
                return (name.lowercased(), attributes, selfClosing, position + 1)
            } else if character == "/" {
                selfClosing = true
                position += 1
            } else {
                selfClosing = false
                var attribute = ""
                while position < characters.count, !characters[position].isWhitespace,
                    !"=>/".contains(characters[position])
                {
                    attribute.append(characters[position])
                    position += 1
                }
                if attribute.isEmpty {
                    position += 1
                    continue
                }
                while position < characters.count, characters[position].isWhitespace { position += 1 }
                var value = ""
                if position < characters.count, characters[position] == "=" {
                    position += 1
                    while position < characters.count, characters[position].isWhitespace { position += 1 }
                    if position < characters.count, characters[position] == "\"" || characters[position] == "'" {
                        let quote = characters[position]
                        position += 1
                        while position < characters.count, characters[position] != quote {
                            value.append(characters[position])
                            position += 1
                        }
                        position += 1
                    } else {
                        while position < characters.count, !characters[position].isWhitespace,
                            characters[position] != ">"
                        {
                            value.append(characters[position])
                            position += 1
                        }
                    }
                }
                let key = attribute.lowercased()
                if attributes[key] == nil { attributes[key] = decodeReferences(value) }
            }
        }
        return (name.lowercased(), attributes, selfClosing, position)
    }

    /// `text` with the named references `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&nbsp;` and numeric ones
    /// decoded; any other `&` stays as it is.
    static func decodeReferences(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}"]
        var result = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            guard let semicolon = after.prefix(10).firstIndex(of: ";") else {
                result += "&"
                rest = after
                continue
            }
            let name = String(after[..<semicolon])
            var decoded: String?
            if let value = named[name] {
                decoded = value
            } else if name.hasPrefix("#x") || name.hasPrefix("#X") {
                decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
            } else if name.hasPrefix("#") {
                decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
            }
            if let decoded {
                result += decoded
                rest = after[after.index(after: semicolon)...]
            } else {
                result += "&"
                rest = after
            }
        }
        return result + rest
    }

    /// `element` or its nearest ancestor that `matches`, as `Element.closest` finds it.
    func nearest(_ element: Int, where matches: (Element) -> Bool) -> Int? {
        var current: Int? = element
        while let index = current {
            if matches(elements[index]) { return index }
            current = elements[index].parent
        }
        return nil
    }

    /// The index of the first element whose `id` is `id`.
    func element(withID id: String) -> Int? {
        elements.firstIndex { $0.attributes["id"] == id }
    }

    /// The text of the first element with tag `tag`, or nil.
    func text(of tag: String) -> String? {
        elements.first { $0.tag == tag }?.text
    }
}
