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
        var base = Substring(typeName)
        if let genericStart = base.firstIndex(of: "<") { base = base[..<genericStart] }
        if let lastDot = base.lastIndex(of: ".") { base = base[base.index(after: lastDot)...] }
        if base.count > suffix.count, base.hasSuffix(suffix) { base = base.dropLast(suffix.count) }
        return words(in: base).joined(separator: " ")
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
