/// Which system a piece of personalised content comes from.
///
/// Content actions, campaigns and content blocks all feed the same reporting pipeline, so every content event
/// says which of them produced it. Further sources can be added as static members.
public struct ContentSource: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The wire name of the source.
    public var rawValue: String

    /// Creates a source from its wire name.
    /// - Parameter rawValue: The wire name, for example `campaign`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Decodes the source from a single string.
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when the value is not a string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the source as a single string.
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The wire name.
    public var description: String { rawValue }

    /// A Personyze-style content action.
    public static let contentAction = ContentSource(rawValue: "action")
    /// An Evergage-style campaign.
    public static let campaign = ContentSource(rawValue: "campaign")
    /// An Exponea-style in-app content block.
    public static let contentBlock = ContentSource(rawValue: "contentBlock")
}

/// The piece of personalised content an event is about: its source, its id within that source, and its name.
///
/// Statistics are grouped by ``source`` and ``id``; the ``name`` is for people reading them.
public struct ContentReference: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The system the content comes from.
    public var source: ContentSource
    /// The content's id within its source.
    public var id: String
    /// A human-readable name, if the source has one.
    public var name: String?

    /// Creates a reference.
    /// - Parameters:
    ///   - source: The system the content comes from.
    ///   - id: The content's id within its source.
    ///   - name: A human-readable name.
    public init(source: ContentSource, id: String, name: String? = nil) {
        self.source = source
        self.id = id
        self.name = name
    }

    /// A reference to a content action.
    /// - Parameters:
    ///   - id: The action's numeric id.
    ///   - name: The action's name.
    /// - Returns: The reference.
    public static func contentAction(id: Int, name: String? = nil) -> ContentReference {
        ContentReference(source: .contentAction, id: String(id), name: name)
    }

    /// A reference to a campaign.
    /// - Parameters:
    ///   - id: The campaign id.
    ///   - name: The campaign name.
    /// - Returns: The reference.
    public static func campaign(id: String, name: String? = nil) -> ContentReference {
        ContentReference(source: .campaign, id: id, name: name)
    }

    /// A reference to a content block.
    /// - Parameters:
    ///   - id: The block id.
    ///   - name: The block name.
    /// - Returns: The reference.
    public static func contentBlock(id: String, name: String? = nil) -> ContentReference {
        ContentReference(source: .contentBlock, id: id, name: name)
    }

    /// `source:id`, followed by the name in quotes when there is one.
    public var description: String {
        let base = "\(source.rawValue):\(id)"
        guard let name else { return base }
        return "\(base) \"\(name)\""
    }
}
