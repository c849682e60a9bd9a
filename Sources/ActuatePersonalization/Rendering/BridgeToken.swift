/// The secret of one rendered document: its bridge script puts it in every message it posts, and the app refuses
/// a message without it, so a message that a script of the page posted directly through
/// `window.webkit.messageHandlers` cannot pass for a click the bridge reported.
///
/// Each document gets a fresh token (``random()``). The bridge script keeps it out of the page's reach (see
/// ``BridgeScript``), so a page cannot learn it and has 128 bits to guess.
package struct BridgeToken: Sendable {
    /// The token as the script embeds it: lowercase hexadecimal digits.
    let text: String

    /// A token with the given text; tests and the fuzz target use a fixed one.
    package init(_ text: String) {
        self.text = text
    }

    /// A fresh token of 128 random bits from the system's generator.
    static func random() -> BridgeToken {
        var generator = SystemRandomNumberGenerator()
        let digits = (0..<2).map { _ in
            let word = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - word.count) + word
        }
        return BridgeToken(digits.joined())
    }

    /// Whether `candidate` is this token. The time it takes depends on the lengths only, not on where the two
    /// differ, so a page that can time the answer learns nothing about the token's characters.
    func matches(_ candidate: String) -> Bool {
        guard candidate.utf8.count == text.utf8.count else { return false }
        var difference: UInt8 = 0
        for (expected, given) in zip(text.utf8, candidate.utf8) {
            difference |= expected ^ given
        }
        return difference == 0
    }
}
