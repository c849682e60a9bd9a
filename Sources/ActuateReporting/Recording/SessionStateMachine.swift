import Actuate
import Foundation

/// The session rules as a pure value: it reads no clock and does no I/O, so it can be tested alone.
///
/// The ``Reporter`` feeds it the scheduler's readings and turns its transitions into `session_start` and
/// `session_end` events.
///
/// <!-- readme: package-only -->
/// ```swift
/// var machine = SessionStateMachine(policy: SessionPolicy())
/// let first = machine.recordActivity(uptime: .zero, date: start, newSessionID: "s1")
/// // first.started?.id == "s1"
/// ```
struct SessionStateMachine: Sendable, Hashable {
    /// The rules that end sessions.
    let policy: SessionPolicy
    /// The session most recently started, which may have expired since its last event.
    private(set) var session: ReportingSession?

    /// Creates a machine with no session.
    /// - Parameter policy: The rules that end sessions.
    init(policy: SessionPolicy) {
        self.policy = policy
    }

    /// Why `session` has expired at `uptime`, or nil when it is still live.
    ///
    /// When both rules have expired it, the one that fired first is given.
    /// - Parameters:
    ///   - session: The session to check.
    ///   - uptime: The monotonic time to check at.
    /// - Returns: The reason it expired, or nil.
    func expiry(of session: ReportingSession, at uptime: Duration) -> SessionEndReason? {
        policy.expiry(startUptime: session.startUptime, lastActivityUptime: session.lastActivityUptime, at: uptime)
    }

    /// The session an event at `uptime` would join, or nil when it would start a new one.
    /// - Parameter uptime: The monotonic time.
    /// - Returns: The live session, or nil.
    func liveSession(at uptime: Duration) -> ReportingSession? {
        guard let session, expiry(of: session, at: uptime) == nil else { return nil }
        return session
    }

    /// Records an event: it joins the live session, or ends the expired one and starts a new one.
    /// - Parameters:
    ///   - uptime: The event's monotonic time.
    ///   - date: The event's wall-clock time.
    ///   - newSessionID: Makes the id of a new session; only called when one starts.
    /// - Returns: What ended and started, and the session the event belongs to.
    mutating func recordActivity(
        uptime: Duration,
        date: Date,
        newSessionID: () -> String
    ) -> SessionTransition {
        if var live = liveSession(at: uptime) {
            live.lastActivityUptime = max(live.lastActivityUptime, uptime)
            session = live
            return SessionTransition(ended: nil, started: nil, current: live)
        }
        let ended = endSession(uptime: uptime, date: date, reason: .ended)
        let started = ReportingSession(id: newSessionID(), startDate: date, startUptime: uptime)
        session = started
        return SessionTransition(ended: ended, started: started, current: started)
    }

    /// Ends the current session, if any, and starts a new one now.
    /// - Parameters:
    ///   - uptime: The monotonic time.
    ///   - date: The wall-clock time.
    ///   - newSessionID: Makes the new session's id.
    /// - Returns: What ended and started.
    mutating func startNewSession(
        uptime: Duration,
        date: Date,
        newSessionID: () -> String
    ) -> SessionTransition {
        let ended = endSession(uptime: uptime, date: date, reason: .newSessionRequested)
        let started = ReportingSession(id: newSessionID(), startDate: date, startUptime: uptime)
        session = started
        return SessionTransition(ended: ended, started: started, current: started)
    }

    /// Ends the current session, if any, leaving none; the next event starts a new one.
    ///
    /// A session that had already expired ends with its expiry reason and lasts until its last event;
    /// otherwise it ends with `reason` and lasts until `uptime`.
    /// - Parameters:
    ///   - uptime: The monotonic time.
    ///   - date: The wall-clock time.
    ///   - reason: Why it ends, if it has not already expired.
    /// - Returns: The ended session, or nil when there was none.
    mutating func endSession(uptime: Duration, date: Date, reason: SessionEndReason) -> EndedSession? {
        guard let current = session else { return nil }
        session = nil
        if let expired = expiry(of: current, at: uptime) {
            let duration = max(.zero, current.lastActivityUptime - current.startUptime)
            let endDate = current.startDate.addingTimeInterval(duration.seconds)
            return EndedSession(session: current, duration: duration, endDate: endDate, reason: expired)
        }
        let duration = max(.zero, uptime - current.startUptime)
        return EndedSession(session: current, duration: duration, endDate: date, reason: reason)
    }
}
