import ActuateReporting
import Foundation

/// A message a shown block's bridge script posted, checked before anything acts on it.
package enum ContentBlockBridgeMessage: Sendable, Hashable {
    /// The user clicked a link.
    case click(ContentBlockLink)
    /// The user clicked the close element.
    case close

    /// The longest message accepted, in bytes.
    static let maxBytes = 8_192
    /// The longest link accepted, in characters.
    static let maxLinkLength = 2_048

    /// Why a message without the document's token is refused.
    static let forgedReason = "it does not carry this page's token: a script of the page posted it, not the bridge"

    /// Parses and checks one posted message.
    /// - Parameters:
    ///   - text: The JSON string the page posted.
    ///   - allowedSchemes: The link schemes a click may carry.
    ///   - token: The secret of the document the message came from, which the bridge puts in every message.
    /// - Throws: ``ContentBlockError/invalidMessage(reason:)`` saying what is wrong.
    package init(parsing text: String, allowedSchemes: Set<String>, token: BridgeToken) throws(ContentBlockError) {
        guard text.utf8.count <= Self.maxBytes else {
            throw .invalidMessage(reason: "\(text.utf8.count) bytes is more than the limit of \(Self.maxBytes)")
        }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)),
            case .object(let object) = value
        else {
            throw .invalidMessage(reason: "not a JSON object: \(text.prefix(80))")
        }
        guard let carried = object["token"]?.stringValue, token.matches(carried) else {
            throw .invalidMessage(reason: Self.forgedReason)
        }
        switch object["action"]?.stringValue {
        case "close":
            self = .close
        case "click":
            guard let link = object["link"]?.stringValue, !link.isEmpty else {
                throw .invalidMessage(reason: "a click without a link")
            }
            let text = object["text"]?.stringValue
            self = .click(try ContentBlockLink(checking: link, text: text, allowedSchemes: allowedSchemes))
        case let other?:
            throw .invalidMessage(reason: "unknown action \"\(other.prefix(40))\"; expected click or close")
        case nil:
            throw .invalidMessage(reason: "no \"action\" string")
        }
    }
}

/// An action inside a content block that the user clicked: its link and the text it showed.
public struct ContentBlockLink: Sendable, Hashable {
    /// The link, as the block's HTML gave it.
    public var url: String
    /// The clicked element's text, if it had any.
    public var text: String?

    /// Creates an action.
    /// - Parameters:
    ///   - url: The link.
    ///   - text: The clicked element's text.
    public init(url: String, text: String? = nil) {
        self.url = url
        self.text = text
    }

    /// Checks a link before it is tracked or opened.
    init(checking link: String, text: String?, allowedSchemes: Set<String>) throws(ContentBlockError) {
        guard link.count <= ContentBlockBridgeMessage.maxLinkLength else {
            throw .invalidMessage(
                reason: "a link of \(link.count) characters is longer than \(ContentBlockBridgeMessage.maxLinkLength)"
            )
        }
        guard let scheme = ContentLinkSchemes.scheme(of: link), URL(string: link) != nil else {
            throw .invalidMessage(reason: "\"\(link.prefix(80))\" is not an absolute URL")
        }
        guard ContentLinkSchemes.allows(link, in: allowedSchemes) else {
            let allowed = ContentLinkSchemes.checked(allowedSchemes).sorted().joined(separator: ", ")
            throw .invalidMessage(reason: "links with the scheme \"\(scheme)\" are not allowed (allowed: \(allowed))")
        }
        let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines)
        self.init(url: link, text: trimmed.flatMap { $0.isEmpty ? nil : String($0.prefix(500)) })
    }

    /// Whether the link asks for tracking whatever the consent, with `xnpe_force_track=true` in its query.
    /// - Parameter parameter: The query parameter's name.
    func forcesTracking(parameter: String) -> Bool {
        guard let items = URLComponents(string: url)?.queryItems else { return false }
        return items.contains { $0.name == parameter && $0.value?.lowercased() == "true" }
    }
}
