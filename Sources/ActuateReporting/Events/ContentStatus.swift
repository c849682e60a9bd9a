/// What happened to a piece of personalized content: the event kinds that content statistics count.
///
/// The raw values are the wire names. Decoding a string that is not one of them fails with a
/// `DecodingError`, and `init(parsing:)` throws ``ReportingError/unknownContentStatus(_:)``; neither crashes.
public enum ContentStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// The content was shown to the user (an impression).
    case executed
    /// The user clicked the content's main target.
    case target
    /// The user closed the content, optionally asking not to see it for some sessions.
    case close
    /// The user clicked a product inside the content.
    case product
    /// The user clicked an article inside the content.
    case article
    /// Presenting the content failed.
    case error

    /// Parses a wire name.
    ///
    /// - Parameter string: A status name such as `target`.
    /// - Throws: ``ReportingError/unknownContentStatus(_:)`` when the name is not a known status.
    package init(parsing string: String) throws(ReportingError) {
        guard let status = ContentStatus(rawValue: string) else {
            throw .unknownContentStatus(string)
        }
        self = status
    }

    /// The event type events with this status are recorded under.
    package var eventType: ReportEventType { ReportEventType(rawValue: rawValue) }
}
