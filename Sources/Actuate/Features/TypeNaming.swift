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
    private static func asciiDisplayName(of typeName: String, removingSuffix suffix: String) -> String? {
        var bytes = Array(typeName.utf8)
        let suffixBytes = Array(suffix.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }), suffixBytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        if let genericStart = bytes.firstIndex(of: UInt8(ascii: "<")) { bytes.removeSubrange(genericStart...) }
        if let lastDot = bytes.lastIndex(of: UInt8(ascii: ".")) { bytes.removeSubrange(...lastDot) }
        if bytes.count > suffixBytes.count, bytes.suffix(suffixBytes.count).elementsEqual(suffixBytes) {
            bytes.removeLast(suffixBytes.count)
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        var current: [UInt8] = []
        func endWord() {
            guard !current.isEmpty else { return }
            if !output.isEmpty { output.append(UInt8(ascii: " ")) }
            output += current
            current.removeAll(keepingCapacity: true)
        }
        for (index, byte) in bytes.enumerated() {
            if index > 0, asciiStartsNewWord(at: index, in: bytes) { endWord() }
            if byte != UInt8(ascii: "_") { current.append(byte) }
        }
        endWord()
        return String(decoding: output, as: UTF8.self)
    }

    /// `startsNewWord(at:in:)` for ASCII bytes.
    private static func asciiStartsNewWord(at index: Int, in bytes: [UInt8]) -> Bool {
        func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
        func isLower(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let byte = bytes[index]
        let previous = bytes[index - 1]
        if byte == UInt8(ascii: "_") || previous == UInt8(ascii: "_") { return true }
        if isUpper(byte) {
            if isLower(previous) { return true }
            if isUpper(previous) || isDigit(previous), index + 1 < bytes.count, isLower(bytes[index + 1]) {
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
