import Foundation

/// Why a message from the HTML bridge was refused.
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
    /// The status is not one of `target`, `close`, `product`, `article`.
    case unknownStatus(String)
    /// A field is longer than the bridge allows.
    case oversizedField(name: String, length: Int, limit: Int)
    /// The link's scheme is not allowed, or it is not a URL.
    case disallowedHref(String)
    /// The argument does not suit the status (a close count that is not a whole number, an empty id).
    case invalidArgument(status: String, reason: String)
    /// The message arrived before the content had finished loading.
    case beforeLoad

    /// A sentence saying what was wrong; quoted values are cut to 40 characters.
    package var description: String {
        let prefix = "Bridge message ignored: "
        switch self {
        case .oversizedMessage(let bytes, let limit):
            return prefix + "it is \(bytes) bytes, more than the limit of \(limit)."
        case .notAnObject:
            return prefix + "it is not a JSON object."
        case .missingField(let name):
            return prefix + "the string field \"\(name)\" is missing."
        case .forged:
            return prefix + "it does not carry this page's token: a script of the page posted it, not the bridge."
        case .unknownStatus(let status):
            return prefix + "unknown status \"\(Self.clip(status))\"; expected target, close, product or article."
        case .oversizedField(let name, let length, let limit):
            return prefix + "\"\(name)\" is \(length) characters, more than the limit of \(limit)."
        case .disallowedHref(let href):
            return prefix + "the link \"\(Self.clip(href))\" has a scheme that is not allowed."
        case .invalidArgument(let status, let reason):
            return prefix + "invalid argument for \(Self.clip(status)): \(reason)."
        case .beforeLoad:
            return prefix + "it arrived before the content finished loading."
        }
    }

    static func clip(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(39)) + "…" : text
    }
}

/// Checks one message from the bridge and turns it into an ``ActionClicked``.
package enum BridgeMessage {
    /// Parses `text`, the JSON string the page posted, for the action with id `actionId`.
    ///
    /// The action id comes from the app, never from the page, so a page cannot report clicks on other content.
    /// The message must carry `token`, the secret of the document it came from, in its `token` field.
    package static func parse(
        _ text: String,
        actionID: Int,
        bridge: ContentBridge,
        token: BridgeToken
    ) -> Result<ActionClicked, BridgeMessageError> {
        let bytes = text.utf8.count
        guard bytes <= bridge.maximumMessageBytes else {
            return .failure(.oversizedMessage(bytes: bytes, limit: bridge.maximumMessageBytes))
        }
        guard
            let object = try? JSONDecoder().decode([String: BridgeField].self, from: Data(text.utf8))
        else {
            return .failure(.notAnObject)
        }
        var fields: [String: String] = [:]
        for name in ["status", "href", "arg"] {
            guard case .string(let value) = object[name] else { return .failure(.missingField(name)) }
            fields[name] = value
        }
        guard case .string(let carried) = object["token"], token.matches(carried) else {
            return .failure(.forged)
        }
        let rawStatus = fields["status", default: ""]
        guard let status = ActionClicked.Status(rawValue: rawStatus) else {
            return .failure(.unknownStatus(rawStatus))
        }
        let href = fields["href", default: ""]
        let arg = fields["arg", default: ""]
        if href.count > bridge.maximumHrefLength {
            return .failure(.oversizedField(name: "href", length: href.count, limit: bridge.maximumHrefLength))
        }
        if arg.count > bridge.maximumArgumentLength {
            return .failure(.oversizedField(name: "arg", length: arg.count, limit: bridge.maximumArgumentLength))
        }
        if !href.isEmpty, !isAllowed(href, bridge: bridge) {
            return .failure(.disallowedHref(href))
        }
        let trimmed = arg.trimmingCharacters(in: .whitespaces)
        switch status {
        case .close:
            guard trimmed.isEmpty || Int(trimmed) != nil else {
                return .failure(.invalidArgument(status: rawStatus, reason: "the session count is not a whole number"))
            }
        case .product, .article:
            guard !trimmed.isEmpty else {
                return .failure(.invalidArgument(status: rawStatus, reason: "the id is empty"))
            }
        case .target:
            break
        }
        return .success(ActionClicked(actionID: actionID, href: href, status: status, arg: arg))
    }

    /// Whether `href` is an absolute URL whose scheme the bridge allows.
    static func isAllowed(_ href: String, bridge: ContentBridge) -> Bool {
        ContentLinkSchemes.allows(href, in: bridge.allowedSchemes)
    }
}

/// One field of a bridge message: a string, or anything else.
private enum BridgeField: Decodable {
    case string(String)
    case other

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .string(text)
        } else {
            self = .other
        }
    }
}
