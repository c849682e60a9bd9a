import ActuateReporting

extension RulesDocumentReader {
    /// The keys a content action may hold: `id` and `contentType` and `content` are required, `name` is not.
    static let contentActionKeys = ["id", "name", "contentType", "content"]

    /// `value` as a content action, read the same way from a rules file's `actions` and a decision server's
    /// answer: `id` a whole number, `contentType` and `content` strings, all three required, `name` an optional
    /// string. Every problem is reported at its path; the action is returned whenever its id is readable, so a
    /// cross check can still find references to it.
    /// - Parameters:
    ///   - value: The element.
    ///   - path: Its JSON path, such as `$.actions[3]`.
    ///   - strictKeys: Whether a key outside ``contentActionKeys`` is a problem: in a file it is (a misspelt key is
    ///     caught nowhere else), in a server's answer it is not (a server may add keys of its own).
    /// - Returns: The action, or nil when it has no readable id.
    mutating func contentAction(_ value: JSONValue, at path: String, strictKeys: Bool) -> ContentAction? {
        let keys = strictKeys ? Self.contentActionKeys : nil
        guard let object = object(value, at: path, keys: keys) else { return nil }
        let id = wholeNumber(object["id"], at: "\(path).id", required: true)
        let name = string(object["name"], at: "\(path).name")
        let contentType = string(object["contentType"], at: "\(path).contentType", required: true)
        let content = string(object["content"], at: "\(path).content", required: true)
        guard let id else { return nil }
        return ContentAction(id: id, name: name, contentType: contentType ?? "", content: content ?? "")
    }
}
