/// Decides which conditions a visitor matches and which content actions to show.
///
/// ``LocalDecisionSource`` decides on the device from a rules file; ``HTTPDecisionSource`` asks a server.
/// Implementations must be safe to call from several tasks at once.
public protocol DecisionSource: Sendable {
    /// Whether each answer covers only the commands sent with it.
    ///
    /// `true` (a server): the tracker merges answers into its cache, replaces the cache after a navigate, and
    /// answers from the cache without asking while no command is pending. `false` (local rules): each answer
    /// is the whole result for the visitor's current state, and the tracker asks every time.
    var isIncremental: Bool { get }

    /// Decides for one request.
    /// - Parameter request: The visitor, their profile and the commands not yet sent.
    /// - Returns: The matched conditions and the actions to show, without a tracker attached.
    /// - Throws: Any error; the tracker reports it and keeps its cache.
    func decide(_ request: DecisionRequest) async throws -> TrackerResult
}

/// What a ``DecisionSource`` decides from.
public struct DecisionRequest: Sendable, Hashable {
    /// The visitor's stable anonymous id.
    package var visitorID: String
    /// The visitor's user id, once identified.
    package var userID: String?
    /// The number of sessions the visitor has had, the current one included.
    package var sessionCount: Int
    /// The behaviour commands not yet sent to the source, oldest first.
    package var commands: [BehaviourCommand]
    /// Everything known about the visitor's behaviour.
    package var profile: VisitorProfile

    /// Creates a request.
    /// - Parameters:
    ///   - visitorID: The visitor's stable anonymous id.
    ///   - userID: The visitor's user id.
    ///   - sessionCount: The number of sessions, the current one included.
    ///   - commands: The commands not yet sent.
    ///   - profile: The visitor's profile.
    package init(
        visitorID: String,
        userID: String? = nil,
        sessionCount: Int,
        commands: [BehaviourCommand] = [],
        profile: VisitorProfile = VisitorProfile()
    ) {
        self.visitorID = visitorID
        self.userID = userID
        self.sessionCount = sessionCount
        self.commands = commands
        self.profile = profile
    }
}
