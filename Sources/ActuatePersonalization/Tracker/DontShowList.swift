/// The actions a visitor closed, each with the number of further sessions it stays hidden.
///
/// `close(dontShowSessions: N)` hides an action for the rest of the session it was closed in and for the next
/// N sessions. Each new session counts every entry down by one; an entry at zero is removed when the next
/// session starts, and the action shows again.
struct DontShowList: Sendable, Hashable, Codable {
    struct Entry: Sendable, Hashable, Codable {
        /// Sessions after the current one that the action stays hidden.
        var remainingSessions: Int
        /// The reporting session it was closed in, once known; nil when it was closed before any session
        /// started (the close itself then starts the session it belongs to).
        var sessionId: String?
    }

    private(set) var entries: [Int: Entry] = [:]

    /// Hides `actionId` for the rest of `sessionId` and `sessions` more (negatives count as 0).
    mutating func close(actionId: Int, sessions: Int, sessionId: String?) {
        entries[actionId] = Entry(remainingSessions: max(0, sessions), sessionId: sessionId)
    }

    /// Counts down for the start of session `sessionId`.
    mutating func sessionStarted(_ sessionId: String) {
        for (actionId, entry) in entries {
            if entry.sessionId == nil {
                // Closed before any session existed: the close belongs to the session starting now.
                entries[actionId]?.sessionId = sessionId
            } else if entry.sessionId == sessionId {
                continue
            } else if entry.remainingSessions > 0 {
                entries[actionId] = Entry(remainingSessions: entry.remainingSessions - 1, sessionId: sessionId)
            } else {
                entries[actionId] = nil
            }
        }
    }

    /// Whether `actionId` is hidden now.
    func isHidden(_ actionId: Int) -> Bool {
        entries[actionId] != nil
    }

    /// The sessions after the current one that `actionId` stays hidden, or nil when it is not hidden.
    func remainingSessions(_ actionId: Int) -> Int? {
        entries[actionId]?.remainingSessions
    }
}
