/// Which system a piece of personalized content comes from.
///
/// Every kind of content feeds the same reporting pipeline, so every content event says which source produced
/// it. The module that owns a source registers it as a static member in an extension, as
/// `ActuatePersonalization` does for its content actions, campaigns and content blocks.
public struct ContentSource: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The wire name of the source.
    public var rawValue: String

    /// Creates a source from its wire name.
    /// - Parameter rawValue: The wire name, for example `banner`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The wire name.
    public var description: String { rawValue }

    /// The source of events recorded without a `contentSource` property: `action`, the wire name that
    /// content actions register, which recorded events before there were other sources.
    static let fallback = ContentSource(rawValue: "action")
}

/// The piece of personalized content an event is about: its source, its id within that source, and its name.
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

    /// `source:id`, followed by the name in quotes when there is one.
    public var description: String {
        let base = "\(source.rawValue):\(id)"
        guard let name else { return base }
        return "\(base) \"\(name)\""
    }
}
