/// The template of a self-contained HTML page whose `{{name}}` placeholders are filled in one pass.
///
/// Each placeholder of the template is replaced by its value, and a value is never read again: a value that
/// holds `{{data}}` or `{{script}}` (a report's date, a store's path, a content name from a server) stays that
/// text, instead of expanding into the page's data or script as it would with one replacement after another.
/// A placeholder with no value is left as it is written. The statistics page and the CLI's timeline page use it,
/// with the same ``contentSecurityPolicy``.
///
/// <!-- readme: package-only -->
/// ```swift
/// let page = PageTemplate("<title>{{title}}</title>").filled(["title": "{{data}}"])
/// // "<title>{{data}}</title>"
/// ```
package struct PageTemplate: Sendable, Hashable {
    /// The Content Security Policy of the package's self-contained pages: inline styles and scripts only, images
    /// as `data:` URLs, and nothing fetched (no network, no file, no frame, no form target).
    package static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

    /// The template's text.
    package let text: String

    /// Escapes text for HTML element content and attribute values (quoted with `"` or `'`).
    /// - Parameter text: Any text.
    /// - Returns: The text with `&`, `<`, `>`, `"` and `'` written as character references.
    package static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    /// Creates a template.
    /// - Parameter text: The page with its `{{name}}` placeholders.
    package init(_ text: String) {
        self.text = text
    }

    /// The template with each placeholder replaced by its value, in one pass over the template.
    /// - Parameter values: The value of each placeholder, by name (without the braces); values are inserted as
    ///   they are, so escape them for where they go first.
    /// - Returns: The filled page.
    package func filled(_ values: [String: String]) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count + values.values.reduce(0) { $0 + $1.utf8.count })
        var rest = text[...]
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            let name = String(rest[open.upperBound..<close.lowerBound])
            if let value = values[name] {
                result += rest[..<open.lowerBound]
                result += value
                rest = rest[close.upperBound...]
            } else {
                // Not a placeholder this page fills: keep "{{" and go on after it.
                result += rest[..<open.upperBound]
                rest = rest[open.upperBound...]
            }
        }
        result += rest
        return result
    }
}
