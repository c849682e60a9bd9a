/// The text the terminal surfaces of the demo print for an HTML document.
enum DemoHTMLText {
    /// The words of the document's body up to `end`, without tags, each run of white space one space.
    /// - Parameters:
    ///   - html: The document.
    ///   - end: Where the text to print stops, such as `</body>` or the bridge's `<script>`.
    /// - Returns: The text.
    static func text(of html: String, upTo end: String) -> String {
        let body = html.components(separatedBy: "<body>").last?.components(separatedBy: end).first ?? html
        var text = ""
        var inTag = false
        for character in body {
            if character == "<" {
                inTag = true
            } else if character == ">" {
                inTag = false
                text.append(" ")
            } else if !inTag {
                text.append(character)
            }
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
