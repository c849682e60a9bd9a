import ActuateReporting
import Foundation

/// The tracker's own session, Personyze's: the unit the don't-show countdown and the `sessionCount` targeting
/// count.
///
/// It is kept apart from the reporter's sessions (the visits of statistics), whose ``SessionPolicy`` may also end
/// them after inactivity. It lives in memory only, so each launch starts a new one.
struct TrackerSession: Sendable, Hashable {
    /// A random UUID string.
    var id: String
    /// When it started, on the reporter's monotonic clock.
    var startUptime: Duration
    /// When the tracker was last called in it, on the same clock.
    var lastActivityUptime: Duration

    /// Starts a session at `uptime`.
    init(id: String = UUID().uuidString, startUptime: Duration) {
        self.id = id
        self.startUptime = startUptime
        self.lastActivityUptime = startUptime
    }

    /// Whether the session has ended by `uptime` under `policy`.
    func hasEnded(at uptime: Duration, policy: SessionPolicy) -> Bool {
        policy.expiry(startUptime: startUptime, lastActivityUptime: lastActivityUptime, at: uptime) != nil
    }
}
