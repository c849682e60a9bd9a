import Foundation

/// The two rules that end a reporting session, each of which can be turned off.
///
/// - `maximumLength` counts from the session's *start* (the rule content actions report by): with the default 90 minutes, an
///   event 89 minutes 59 seconds after the start joins the session, and one at 90 minutes starts a new one, however
///   busy the user was.
/// - `inactivityTimeout` counts from the session's last event: an event that comes this long or longer after
///   the previous one starts a new session.
public struct SessionPolicy: Sendable, Hashable {
    /// How long a session may last from its start; nil for no limit. 90 minutes by default.
    package var maximumLength: Duration?
    /// How long a session survives without events; nil for no limit. 30 minutes by default.
    package var inactivityTimeout: Duration?

    /// Creates a policy.
    /// - Parameters:
    ///   - maximumLength: How long a session may last from its start; nil for no limit.
    ///   - inactivityTimeout: How long a session survives without events; nil for no limit.
    public init(maximumLength: Duration? = .seconds(90 * 60), inactivityTimeout: Duration? = .seconds(30 * 60)) {
        self.maximumLength = maximumLength
        self.inactivityTimeout = inactivityTimeout
    }

    /// Why a session has ended by `uptime` under this policy, or nil when it is still live.
    ///
    /// When both rules have ended it, the one that fired first is given.
    /// - Parameters:
    ///   - startUptime: When the session started, on the monotonic clock.
    ///   - lastActivityUptime: When the session last saw activity, on the monotonic clock.
    ///   - uptime: The monotonic time to check at.
    /// - Returns: `SessionEndReason/maximumLength` or `SessionEndReason/inactivity`, or nil.
    package func expiry(startUptime: Duration, lastActivityUptime: Duration, at uptime: Duration) -> SessionEndReason? {
        var candidates: [(deadline: Duration, reason: SessionEndReason)] = []
        if let maximumLength {
            candidates.append((startUptime + maximumLength, .maximumLength))
        }
        if let inactivityTimeout {
            candidates.append((lastActivityUptime + inactivityTimeout, .inactivity))
        }
        return candidates.filter { uptime >= $0.deadline }.min { $0.deadline < $1.deadline }?.reason
    }
}

/// One reporting session: a visit, in the sense of "CTR of visit".
public struct ReportingSession: Sendable, Hashable, Identifiable {
    /// A random UUID string, carried by every event of the session.
    public var id: String
    /// When the session started, on the scheduler's wall clock.
    package var startDate: Date
    /// When the session started, on the scheduler's monotonic clock.
    var startUptime: Duration
    /// When the session last saw an event, on the scheduler's monotonic clock.
    var lastActivityUptime: Duration

    /// Creates a session.
    /// - Parameters:
    ///   - id: The session id.
    ///   - startDate: The wall-clock start.
    ///   - startUptime: The monotonic start.
    init(id: String, startDate: Date, startUptime: Duration) {
        self.id = id
        self.startDate = startDate
        self.startUptime = startUptime
        self.lastActivityUptime = startUptime
    }
}

/// Why a session ended.
package enum SessionEndReason: String, Sendable, Hashable, Codable {
    /// It reached `SessionPolicy/maximumLength` from its start.
    case maximumLength
    /// It saw no event for `SessionPolicy/inactivityTimeout`.
    case inactivity
    /// A new session was asked for.
    case newSessionRequested
    /// The app ended it.
    case ended
    /// The identity was reset.
    case reset
    /// The app stopped while the session was open; the next launch found it and recorded its end at its last
    /// activity.
    case foundOpenAtLaunch
}

/// A session that has ended, with its length.
struct EndedSession: Sendable, Hashable {
    /// The session.
    var session: ReportingSession
    /// Its length: up to its last event when it expired, up to the end request otherwise.
    var duration: Duration
    /// When it ended, on the wall clock.
    var endDate: Date
    /// Why it ended.
    var reason: SessionEndReason
}

/// What one step of the ``SessionStateMachine`` did.
struct SessionTransition: Sendable, Hashable {
    /// The session that ended in this step, if one did.
    var ended: EndedSession?
    /// The session that started in this step, if one did.
    var started: ReportingSession?
    /// The session that is current after this step.
    var current: ReportingSession
}
