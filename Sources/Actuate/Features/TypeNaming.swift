/// Builds the default display names of features and actions from their type names.
enum TypeNaming {
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
