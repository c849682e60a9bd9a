/// Makes text read from a file safe to write to a terminal.
///
/// A report's strings (an action name, an input description, a failure message) reach the terminal that runs
/// `actuate dump`. Written raw, `ESC ] 52 ; …` would set its clipboard and `ESC [ 2J` clear its screen; so every
/// control character is written as a visible escape, such as `\u{1B}`, before the text is printed.
enum TerminalText {
    /// `text` with every control character written as `\u{…}`: the C0 controls (including newline and tab, so
    /// one string cannot forge a line of its own), DEL, the C1 controls, and the bidirectional overrides and
    /// isolates, which reorder what a terminal shows.
    static func escaped(_ text: String) -> String {
        escape(text) { _ in true }
    }

    /// Like ``escaped(_:)``, but keeps newlines and tabs: for messages of several lines, such as the list of a
    /// rules file's problems.
    static func escapedKeepingLines(_ text: String) -> String {
        escape(text) { $0 != "\n" && $0 != "\t" }
    }

    private static func escape(_ text: String, where shouldEscape: (Unicode.Scalar) -> Bool) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && shouldEscape($0) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) && shouldEscape(scalar) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
