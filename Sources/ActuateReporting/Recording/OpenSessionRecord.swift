import Foundation

/// The reporting session that was open when a launch last recorded an event: enough for the next launch to
/// record its `session_end` at its last activity when the app stopped without ending it.
package struct OpenSessionRecord: Sendable, Hashable, Codable {
    /// The session's id.
    package var sessionID: String
    /// When it last saw an event, on the wall clock.
    package var lastActivityDate: Date
    /// How long it had lasted at its last event, in seconds.
    package var duration: Double
    /// The ids its events carried.
    package var anonymousID: String
    package var userID: String?

    package init(sessionID: String, lastActivityDate: Date, duration: Double, anonymousID: String, userID: String?) {
        self.sessionID = sessionID
        self.lastActivityDate = lastActivityDate
        self.duration = duration
        self.anonymousID = anonymousID
        self.userID = userID
    }

    private enum CodingKeys: String, CodingKey {
        case sessionID = "sessionId"
        case lastActivityDate = "lastActivity"
        case duration
        case anonymousID = "anonymousId"
        case userID = "userId"
    }
}

/// A store that keeps the open session's record beside its events, so that the next ``Reporter`` on it records
/// that session's end. ``FileEventStore`` keeps it in `open-session.json` in its directory; ``MemoryEventStore``
/// in memory, so a test that relaunches on the same store sees it.
package protocol OpenSessionKeeping: Sendable {
    /// The record the last launch left, or nil when its session was ended (or it recorded nothing).
    func loadOpenSession() -> OpenSessionRecord?
    /// Replaces the record; nil when no session is open.
    func saveOpenSession(_ record: OpenSessionRecord?)
}
