import Foundation

/// The one parser of the messages a rendered document's bridge script posts, for content actions and content
/// blocks alike.
///
/// Every message passes the same checks, in this order, and the first that fails gives the message's
/// ``BridgeMessageError``:
/// 1. it is at most ``ContentBridge/maximumMessageBytes`` UTF-8 bytes (8,192 by default);
/// 2. it is a JSON object, with the string fields its document's vocabulary always sends: `status`, `href` and
///    `arg` for a content action, `action` for a content block;
/// 3. it carries the document's ``BridgeToken`` in its `token` field (otherwise a script of the page posted it,
///    ``BridgeMessageError/forged``), before anything it says is looked at;
/// 4. what it says makes sense: a known status or action, fields within the bridge's lengths, an argument that
///    suits the status;
/// 5. its link, when it has one, is an absolute URL of at most ``ContentBridge/maximumHrefLength`` characters
///    whose scheme the bridge allows.
package enum BridgeMessage {
    /// The largest message accepted by default, in UTF-8 bytes: a content block's click (a link of up to 2,048
    /// characters and its text of up to 500) fits whatever its characters.
    package static let defaultMaximumBytes = 8_192

    /// Parses `text`, the JSON string the page of content action `actionID` posted.
    ///
    /// The action id comes from the app, never from the page, so a page cannot report clicks on other content.
    /// - Parameters:
    ///   - text: The message.
    ///   - actionID: The id of the rendered action.
    ///   - bridge: The bridge's limits and link schemes.
    ///   - token: The secret of the document the message came from.
    /// - Returns: The click, or why the message was refused.
    package static func parse(
        _ text: String,
        actionID: Int,
        bridge: ContentBridge,
        token: BridgeToken
    ) -> Result<ActionClicked, BridgeMessageError> {
        let fields: [String: String]
        switch envelope(of: text, requiring: ["status", "href", "arg"], bridge: bridge, token: token) {
        case .success(let checked): fields = checked
        case .failure(let error): return .failure(error)
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
        if !href.isEmpty, !ContentLinkSchemes.allows(href, in: bridge.allowedSchemes) {
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

    /// Parses `text`, the JSON string a content block's page posted: `{"action": "close"}`, or
    /// `{"action": "click", "link": URL, "text": …}` where `text` is optional.
    /// - Parameters:
    ///   - text: The message.
    ///   - bridge: The bridge's limits and link schemes.
    ///   - token: The secret of the document the message came from.
    /// - Returns: The click or close, or why the message was refused.
    package static func parseBlockMessage(
        _ text: String,
        bridge: ContentBridge,
        token: BridgeToken
    ) -> Result<ContentBlockBridgeMessage, BridgeMessageError> {
        let fields: [String: String]
        switch envelope(of: text, requiring: ["action"], bridge: bridge, token: token) {
        case .success(let checked): fields = checked
        case .failure(let error): return .failure(error)
        }
        switch fields["action", default: ""] {
        case "close":
            return .success(.close)
        case "click":
            guard let link = fields["link"], !link.isEmpty else {
                return .failure(.invalidArgument(status: "click", reason: "a click without a link"))
            }
            return checkedLink(link, bridge: bridge, field: "link").map { link in
                .click(ContentBlockLink(url: link, text: fields["text"].flatMap(ContentBlockLink.shownText)))
            }
        case let other:
            return .failure(.unknownAction(other))
        }
    }

    /// `link` when it is at most ``ContentBridge/maximumHrefLength`` characters and an absolute URL whose scheme
    /// the bridge allows.
    /// - Parameters:
    ///   - link: The link.
    ///   - bridge: The bridge's limits and link schemes.
    ///   - field: The name the message gave the link, for the error.
    package static func checkedLink(
        _ link: String,
        bridge: ContentBridge,
        field: String = "href"
    ) -> Result<String, BridgeMessageError> {
        guard link.count <= bridge.maximumHrefLength else {
            return .failure(.oversizedField(name: field, length: link.count, limit: bridge.maximumHrefLength))
        }
        guard ContentLinkSchemes.allows(link, in: bridge.allowedSchemes) else {
            return .failure(.disallowedHref(link))
        }
        return .success(link)
    }

    /// The checks every message passes first: its size, that it is a JSON object with the string fields
    /// `required`, then its token.
    /// - Returns: The message's string fields (others are left out), or why it was refused.
    private static func envelope(
        of text: String,
        requiring required: [String],
        bridge: ContentBridge,
        token: BridgeToken
    ) -> Result<[String: String], BridgeMessageError> {
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
        for (name, field) in object {
            if case .string(let value) = field { fields[name] = value }
        }
        for name in required where fields[name] == nil {
            return .failure(.missingField(name))
        }
        guard let carried = fields.removeValue(forKey: "token"), token.matches(carried) else {
            return .failure(.forged)
        }
        return .success(fields)
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
