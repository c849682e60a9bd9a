import Foundation

/// One thing that happened, as the reporting layer records, stores and uploads it.
///
/// Every event has a unique ``id`` that the collector uses to drop duplicates, so an upload that is retried
/// after a lost acknowledgement never counts an event twice.
public struct ReportEvent: Sendable, Hashable, Codable, Identifiable {
    /// A unique identifier, stable for the life of the event.
    public var id: UUID
    /// What happened: a content status such as `executed`, a session event, or a custom type.
    public var type: String
    /// When it happened, read from the injected scheduler's clock.
    public var timestamp: Date
    /// The reporting session the event belongs to.
    public var sessionID: String
    /// The anonymous identifier of this installation, stable across launches.
    public var anonymousID: String
    /// The identified user, if ``Reporter/identify(userID:)`` was called.
    public var userID: String?
    /// Typed properties of the event.
    public var properties: [String: JSONValue]

    /// Creates an event.
    public init(
        id: UUID = UUID(),
        type: String,
        timestamp: Date,
        sessionID: String,
        anonymousID: String,
        userID: String? = nil,
        properties: [String: JSONValue] = [:]
    ) {
        self.id = id
        self.type = type
        self.timestamp = timestamp
        self.sessionID = sessionID
        self.anonymousID = anonymousID
        self.userID = userID
        self.properties = properties
    }
}
