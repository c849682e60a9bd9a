/// Builds the default display names of features and actions from their type names.
enum TypeNaming {
    /// The name of `type`: the same text as `String(describing: type)`, or `String(reflecting: type)` when
    /// `qualified`.
    ///
    /// `String(describing:)` first asks the runtime whether the metatype conforms to three protocols
    /// (`TextOutputStreamable`, `CustomStringConvertible`, `CustomDebugStringConvertible`), and the first such question
    /// about a type scans every protocol conformance record in the process. For an app's 500 action types that was
    /// 1.3 million instructions per type, most of what `quickSetup` cost. The runtime's type name asks nothing.
    /// - Parameters:
    ///   - type: The type.
    ///   - qualified: Whether to include the module and enclosing types, as `String(reflecting:)` does.
    /// - Returns: The type's name.
    static func name(of type: Any.Type, qualified: Bool = false) -> String {
        _typeName(type, qualified: qualified)
    }

    /// `displayName(of:removingSuffix:)` of a type's unqualified name.
    static func displayName(of type: Any.Type, removingSuffix suffix: String) -> String {
        displayName(of: name(of: type), removingSuffix: suffix)
    }

    /// Splits `typeName` at CamelCase boundaries, keeping acronyms whole, and removes `suffix` from the end.
    ///
    /// `CreateNewTweetAction` with suffix `Action` gives `Create New Tweet`; `OpenURLAction` gives `Open URL`.
    static func displayName(of typeName: String, removingSuffix suffix: String) -> String {
        asciiDisplayName(of: typeName, removingSuffix: suffix)
            ?? characterDisplayName(of: typeName, removingSuffix: suffix)
    }

    /// ``displayName(of:removingSuffix:)`` character by character, for any name.
    static func characterDisplayName(of typeName: String, removingSuffix suffix: String) -> String {
        var base = Substring(typeName)
        if let genericStart = base.firstIndex(of: "<") { base = base[..<genericStart] }
        if let lastDot = base.lastIndex(of: ".") { base = base[base.index(after: lastDot)...] }
        if base.count > suffix.count, base.hasSuffix(suffix) { base = base.dropLast(suffix.count) }
        return words(in: base).joined(separator: " ")
    }

    /// ``displayName(of:removingSuffix:)`` over bytes, for the names that are all ASCII, where every byte is one
    /// character: the same words, without building a `Character` and asking its Unicode properties per letter
    /// (75,000 instructions a name that way, 500 names at every app's launch). Nil when a name is not ASCII.
    ///
    /// One pass over the name's bytes, writing each word straight into the output (an earlier version that copied
    /// the trimmed name and each word into arrays of their own took about 4,300 instructions a name).
    private static func asciiDisplayName(of typeName: String, removingSuffix suffix: String) -> String? {
        let bytes = Array(typeName.utf8)
        let suffixBytes = Array(suffix.utf8)
        var end = bytes.count
        var start = 0
        for (index, byte) in bytes.enumerated() {
            guard byte < 0x80 else { return nil }
            if end == bytes.count {
                if byte == UInt8(ascii: "<") {
                    end = index
                } else if byte == UInt8(ascii: ".") {
                    start = index + 1
                }
            }
        }
        guard suffixBytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        if end - start > suffixBytes.count, bytes[end - suffixBytes.count..<end].elementsEqual(suffixBytes) {
            end -= suffixBytes.count
        }
        var output: [UInt8] = []
        output.reserveCapacity((end - start) * 2)
        // A space is written before a word's first byte, so that a word of underscores alone leaves none behind.
        var wordHasBytes = false
        var needsSpace = false
        var index = start
        while index < end {
            let byte = bytes[index]
            if index > start, wordHasBytes, asciiStartsNewWord(at: index, in: bytes, to: end) {
                needsSpace = true
                wordHasBytes = false
            }
            if byte != UInt8(ascii: "_") {
                if needsSpace { output.append(UInt8(ascii: " ")) }
                needsSpace = false
                output.append(byte)
                wordHasBytes = true
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `startsNewWord(at:in:)` for the ASCII bytes of a name that ends at `end` in `bytes`.
    private static func asciiStartsNewWord(at index: Int, in bytes: [UInt8], to end: Int) -> Bool {
        func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
        func isLower(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let byte = bytes[index]
        let previous = bytes[index - 1]
        if byte == UInt8(ascii: "_") || previous == UInt8(ascii: "_") { return true }
        if isUpper(byte) {
            if isLower(previous) { return true }
            if isUpper(previous) || isDigit(previous), index + 1 < end, isLower(bytes[index + 1]) {
                return true
            }
        }
        return isDigit(byte) && (isUpper(previous) || isLower(previous))
    }

    private static func words(in name: Substring) -> [String] {
        let characters = Array(name)
        var words: [String] = []
        var current = ""
        for (index, character) in characters.enumerated() {
            if index > 0, startsNewWord(at: index, in: characters) {
                words.append(current)
                current = ""
            }
            if character != "_" { current.append(character) }
        }
        if !current.isEmpty { words.append(current) }
        return words.filter { !$0.isEmpty }
    }

    private static func startsNewWord(at index: Int, in characters: [Character]) -> Bool {
        let character = characters[index]
        let previous = characters[index - 1]
        if character == "_" || previous == "_" { return true }
        if character.isUppercase {
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            if previous.isLowercase { return true }
            if previous.isUppercase || previous.isNumber, let next, next.isLowercase { return true }
        }
        if character.isNumber, previous.isLetter { return true }
        return false
    }
}
