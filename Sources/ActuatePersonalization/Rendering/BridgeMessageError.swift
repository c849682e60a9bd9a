/// Why a message from a rendered document's bridge was refused: the one error of ``BridgeMessage``, for content
/// actions and content blocks alike.
package enum BridgeMessageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The message is larger than ``ContentBridge/maximumMessageBytes``.
    case oversizedMessage(bytes: Int, limit: Int)
    /// The message is not a JSON object.
    case notAnObject
    /// A field the bridge always sends is missing or not a string.
    case missingField(String)
    /// The message does not carry the token of the rendered document: a script of the page posted it, not the
    /// bridge.
    case forged
    /// A content action's status is not one of `target`, `close`, `product`, `article`.
    case unknownStatus(String)
    /// A content block's action is not `click` or `close`.
    case unknownAction(String)
    /// A field is longer than the bridge allows.
    case oversizedField(name: String, length: Int, limit: Int)
    /// The link's scheme is not allowed, or it is not an absolute URL.
    case disallowedHref(String)
    /// The argument does not suit the status (a close count that is not a whole number, an empty id, a click
    /// without a link).
    case invalidArgument(status: String, reason: String)
    /// The message arrived before the content had finished loading.
    case beforeLoad

    /// What was wrong, without the leading "Bridge message ignored: "; quoted values are cut to 40 characters.
    package var reason: String {
        switch self {
        case .oversizedMessage(let bytes, let limit):
            return "it is \(bytes) bytes, more than the limit of \(limit)"
        case .notAnObject:
            return "it is not a JSON object"
        case .missingField(let name):
            return "the string field \"\(name)\" is missing"
        case .forged:
            return "it does not carry this page's token: a script of the page posted it, not the bridge"
        case .unknownStatus(let status):
            return "unknown status \"\(Self.clip(status))\"; expected target, close, product or article"
        case .unknownAction(let action):
            return "unknown action \"\(Self.clip(action))\"; expected click or close"
        case .oversizedField(let name, let length, let limit):
            return "\"\(name)\" is \(length) characters, more than the limit of \(limit)"
        case .disallowedHref(let href):
            guard let scheme = ContentLinkSchemes.scheme(of: href) else {
                return "the link \"\(Self.clip(href))\" is not an absolute URL"
            }
            return "the link \"\(Self.clip(href))\" has the scheme \"\(Self.clip(scheme))\", which is not allowed"
        case .invalidArgument(let status, let reason):
            return "invalid argument for \(Self.clip(status)): \(reason)"
        case .beforeLoad:
            return "it arrived before the content finished loading"
        }
    }

    /// A sentence saying what was wrong: "Bridge message ignored: " and the ``reason``.
    package var description: String {
        "Bridge message ignored: \(reason)."
    }

    static func clip(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(39)) + "…" : text
    }
}
