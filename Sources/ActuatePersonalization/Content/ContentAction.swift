import Foundation

/// A piece of personalized content to show: usually HTML, sometimes JSON or something else, as its
/// ``contentType`` says.
///
/// A ``Tracker`` returns content actions from ``Tracker/getResult()``, already attached to itself, so that their
/// `report…` methods and ``render(on:bridge:clickedCallback:)`` record what the user did. Content the app builds
/// itself can be attached with ``init(id:name:contentType:content:tracker:)``.
///
/// ```swift
/// let result = try await tracker.getResult()
/// for action in result.actions {
///     if action.contentHtmlDoc != nil {
///         action.render(on: bannerSurface) { clicked in
///             if clicked.status == .close { hideBanner() }
///         }
///     } else if let items = action.contentJsonArray {
///         showNatively(items)
///         action.reportExecuted()
///     }
/// }
/// ```
///
/// Equality, hashing and coding use the four content fields only, not the tracker.
public struct ContentAction: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The action's id, which distinguishes it from every other action of its source.
    public let id: Int
    /// The action's name, for people.
    public let name: String?
    /// The MIME type of ``content``, such as `text/html` or `application/json`.
    public let contentType: String?
    /// The raw content: HTML, a JSON string, or anything else.
    public let content: String
    /// The tracker that records what happens to this action; nil for content that is not tracked.
    package let tracker: Tracker?

    private enum CodingKeys: String, CodingKey {
        case id
        case name
        case contentType
        case content
    }

    /// Creates a content action.
    ///
    /// - Parameters:
    ///   - id: The action's id.
    ///   - name: The action's name.
    ///   - contentType: The MIME type of `content`.
    ///   - content: The raw content.
    ///   - tracker: The tracker that records what happens to it; without one, the `report…` methods record
    ///     nothing and return ``ContentReportResult/noTracker``.
    public init(id: Int, name: String? = nil, contentType: String?, content: String, tracker: Tracker? = nil) {
        self.id = id
        self.name = name
        self.contentType = contentType
        self.content = content
        self.tracker = tracker
    }

    /// Decodes the four content fields; the decoded action has no tracker.
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when a field is missing or of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        contentType = try container.decodeIfPresent(String.self, forKey: .contentType)
        content = try container.decode(String.self, forKey: .content)
        tracker = nil
    }

    /// Encodes the four content fields.
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(contentType, forKey: .contentType)
        try container.encode(content, forKey: .content)
    }

    public static func == (lhs: ContentAction, rhs: ContentAction) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name && lhs.contentType == rhs.contentType && lhs.content == rhs.content
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(name)
        hasher.combine(contentType)
        hasher.combine(content)
    }

    /// The same action, attached to `tracker`.
    /// - Parameter tracker: The tracker that records what happens to it.
    /// - Returns: A copy whose `report…` methods record through `tracker`.
    func attached(to tracker: Tracker?) -> ContentAction {
        ContentAction(id: id, name: name, contentType: contentType, content: content, tracker: tracker)
    }

    /// `action:<id> "<name>" (<contentType>)`.
    public var description: String {
        var text = "action:\(id)"
        if let name { text += " \"\(name)\"" }
        if let contentType { text += " (\(contentType))" }
        return text
    }

    /// The content as an array of string-to-string objects, when ``contentType`` is `application/json` and the
    /// content parses that way; nil otherwise (other types, invalid JSON, an object instead of an array, or any
    /// value that is not a string).
    public var contentJsonArray: [[String: String]]? {
        guard MediaType.matches(contentType, "application/json") else { return nil }
        return Self.stringObjects(in: content)
    }

    /// The content wrapped in a complete HTML document with the click bridge, when ``contentType`` is
    /// `text/html`; nil otherwise. Uses the standard bridge (`ContentBridge()`).
    ///
    /// The document has a viewport meta tag, a capturing click handler that keeps the page from navigating
    /// anywhere, and a bridge script that posts each click on a link or a `data-actuate-…` element to
    /// `window.webkit.messageHandlers.actuate`. See ``ContentBridge``.
    ///
    /// Each call gives a document with a fresh secret token that its bridge puts in every message, and that the
    /// page's own scripts cannot read. Only ``render(on:bridge:clickedCallback:)`` knows the token of the document
    /// it loads, so only there are clicks authenticated: a message a script of the page posted itself is refused.
    /// An app that loads this document into a view of its own cannot tell the two apart.
    public var contentHtmlDoc: String? {
        contentHtmlDoc(bridge: .standard)
    }

    /// The content wrapped in a complete HTML document whose bridge follows `bridge`, when ``contentType`` is
    /// `text/html`; nil otherwise.
    ///
    /// Each call gives a document with a fresh secret token; clicks are authenticated against it only when the
    /// content is shown with ``render(on:bridge:clickedCallback:)`` (see ``contentHtmlDoc``).
    /// - Parameter bridge: The bridge's handler name and link policy.
    /// - Returns: The document, or nil for content that is not HTML.
    package func contentHtmlDoc(bridge: ContentBridge) -> String? {
        contentHtmlDoc(bridge: bridge, token: .random())
    }

    /// The content wrapped in a complete HTML document whose bridge posts `token` in every message, when
    /// ``contentType`` is `text/html`; nil otherwise.
    func contentHtmlDoc(bridge: ContentBridge, token: BridgeToken) -> String? {
        guard MediaType.matches(contentType, "text/html") else { return nil }
        return BridgeDocument(bridge: bridge, token: token, vocabulary: .contentAction).wrap(content)
    }

    /// Parses `text` as a JSON array of objects whose values are all strings.
    static func stringObjects(in text: String) -> [[String: String]]? {
        guard let value = try? JSONDecoder().decode([[String: StrictString]].self, from: Data(text.utf8)) else {
            return nil
        }
        return value.map { $0.mapValues(\.value) }
    }
}

/// A JSON string that refuses every other kind of value, numbers and Booleans included.
private struct StrictString: Decodable {
    let value: String

    init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(String.self)
    }
}

/// Compares MIME types by their type and subtype, ignoring case and parameters such as `charset`.
enum MediaType {
    static func matches(_ contentType: String?, _ expected: String) -> Bool {
        guard let contentType else { return false }
        let essence = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return essence.trimmingCharacters(in: .whitespaces).lowercased() == expected
    }
}
