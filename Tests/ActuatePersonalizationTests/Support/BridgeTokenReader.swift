/// Reads the secret token out of a rendered document, as a test that plays the page's bridge needs it: from the
/// document's text, not from the library's internals.
enum BridgeTokenReader {
    /// The token the bridge script of `document` embeds, or nil when it has none.
    static func token(in document: String) -> String? {
        document.firstMatch(of: #/var token = "([0-9a-f]+)";/#).map { String($0.output.1) }
    }

    /// `message`, a JSON object's text, with the field `"token": token` added, as the bridge adds it to every
    /// message (the bridge puts it last, this first: the parsers do not mind the order). A message that is not an
    /// object's text, or a nil token, leaves `message` as it is.
    static func signed(_ message: String, token: String?) -> String {
        guard let token, message.hasPrefix("{") else { return message }
        let rest = message.dropFirst().drop { $0.isWhitespace }
        return "{\"token\":\"\(token)\"" + (rest.hasPrefix("}") ? "" : ",") + rest
    }
}
