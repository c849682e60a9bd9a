import Foundation

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

    /// Checks a link the app reports, the way the bridge checks a clicked one (``BridgeMessage/checkedLink(_:bridge:field:)``).
    init(checking link: String, text: String?, allowedSchemes: Set<String>) throws(ContentBlockError) {
        let bridge = ContentBlockDocument.bridge(allowing: allowedSchemes)
        switch BridgeMessage.checkedLink(link, bridge: bridge, field: "link") {
        case .success(let link):
            self.init(url: link, text: text.flatMap(Self.shownText))
        case .failure(let error):
            throw .invalidMessage(reason: error.reason)
        }
    }

    /// The text a link showed, as it is kept: without surrounding white space, at most 500 characters, nil when
    /// empty.
    static func shownText(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : String(trimmed.prefix(500))
    }

    /// Whether the link asks for tracking whatever the consent, with `xnpe_force_track=true` in its query.
    /// - Parameter parameter: The query parameter's name.
    func forcesTracking(parameter: String) -> Bool {
        guard let items = URLComponents(string: url)?.queryItems else { return false }
        return items.contains { $0.name == parameter && $0.value?.lowercased() == "true" }
    }
}
