/// The actions a visitor closed, each with the number of further sessions it stays hidden.
///
/// `close(dontShowSessions: N)` hides an action for N sessions, counting the one it was closed in, as Personyze's
/// reference says ("Personyze will not show … this action this number of sessions"): the entry starts at N - 1
/// further sessions. Each new session counts every entry down by one; an entry at zero is removed when the next
/// session starts, and the action shows again. A close without a count, or with 0 or 1, hides the action for the
/// rest of the session it was closed in only.
struct DontShowList: Sendable, Hashable, Codable {
    struct Entry: Sendable, Hashable, Codable {
        /// Sessions after the current one that the action stays hidden.
        var remainingSessions: Int
        /// The reporting session it was closed in, once known; nil when it was closed before any session
        /// started (the close itself then starts the session it belongs to).
        var sessionID: String?

        private enum CodingKeys: String, CodingKey {
            case remainingSessions
            case sessionID = "sessionId"
        }
    }

    private(set) var entries: [Int: Entry] = [:]

    /// Hides `actionId` for `sessions` sessions counting `sessionId`, the one it is closed in; at least for the
    /// rest of `sessionId` (0 and negatives count as 1).
    mutating func close(actionID: Int, sessions: Int, sessionID: String?) {
        entries[actionID] = Entry(remainingSessions: max(1, sessions) - 1, sessionID: sessionID)
    }

    /// Counts down for the start of session `sessionId`.
    mutating func sessionStarted(_ sessionID: String) {
        for (actionID, entry) in entries {
            if entry.sessionID == nil {
                // Closed before any session existed: the close belongs to the session starting now.
                entries[actionID]?.sessionID = sessionID
            } else if entry.sessionID == sessionID {
                continue
            } else if entry.remainingSessions > 0 {
                entries[actionID] = Entry(remainingSessions: entry.remainingSessions - 1, sessionID: sessionID)
            } else {
                entries[actionID] = nil
            }
        }
    }

    /// Whether `actionId` is hidden now.
    func isHidden(_ actionID: Int) -> Bool {
        entries[actionID] != nil
    }

    /// The sessions after the current one that `actionId` stays hidden, or nil when it is not hidden.
    func remainingSessions(_ actionID: Int) -> Int? {
        entries[actionID]?.remainingSessions
    }
}
