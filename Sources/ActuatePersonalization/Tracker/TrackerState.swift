import ActuateReporting

/// The tracker's state and rules, apart from the I/O that drives them: behaviour, page views, duplicate
/// reports, suppression and the result cache.
struct TrackerState: Sendable {
    /// One command waiting to be sent to an incremental source.
    struct Pending: Sendable, Hashable, Codable {
        var sequence: UInt64
        var command: BehaviourCommand
    }

    /// What is saved between launches, apart from the result.
    struct Saved: Sendable, Hashable, Codable {
        var version = 1
        var sessionCount = 0
        var lastSessionID: String?
        var dontShow = DontShowList()
        var pending: [Pending] = []
        var nextSequence: UInt64 = 1
        var profile = VisitorProfile()

        private enum CodingKeys: String, CodingKey {
            case version
            case sessionCount
            case lastSessionID = "lastSessionId"
            case dontShow
            case pending
            case nextSequence
            case profile
        }
    }

    /// A status reported for an action in the current page view, with the argument that tells two reports of
    /// one status apart (a product or article id; empty for the other statuses).
    struct Reported: Hashable {
        var actionID: Int
        var status: String
        var argument: String
    }

    /// The most commands kept for an incremental source; beyond it the oldest are dropped (their report events
    /// stay in the event store).
    static let maximumPendingCommands = 1_000

    var saved = Saved()
    /// The tracker's session now, or nil before the first call of this launch.
    var session: TrackerSession?
    var cached: TrackerResult?
    /// Set by a navigate: the next answer of an incremental source replaces the cache instead of merging.
    var replaceOnNextAnswer = false
    var pageView: Set<Reported> = []
    /// The `error` reports dropped because their action had already reported one in its page view.
    var droppedErrors = 0
    /// Bumped whenever `saved` changes, so that only the newest snapshot is written.
    var savedGeneration: UInt64 = 0
    var resultGeneration: UInt64 = 0

    // MARK: Behaviour

    mutating func record(_ command: BehaviourCommand, keepPending: Bool) {
        saved.profile.apply(command)
        if keepPending {
            saved.pending.append(Pending(sequence: saved.nextSequence, command: command))
            if saved.pending.count > Self.maximumPendingCommands {
                saved.pending.removeFirst(saved.pending.count - Self.maximumPendingCommands)
            }
        }
        saved.nextSequence += 1
        savedGeneration += 1
        if case .navigate = command {
            pageView.removeAll()
            replaceOnNextAnswer = true
        }
    }

    // MARK: Reports

    /// The statuses after which `executed` is no longer reported in a page view: the user already interacted.
    static let interactions: Set<String> = ["target", "close", "product", "article"]

    /// Whether `status` may be reported for `actionId` now, remembering it if so (Personyze's rule: one of
    /// each status and argument per action and page view, and no `executed` once the user interacted with the
    /// action). The argument keeps apart clicks on two products, or two articles, of one action: each counts.
    mutating func admit(actionID: Int, status: String, argument: String = "") -> Bool {
        if status == "executed",
            pageView.contains(where: { $0.actionID == actionID && Self.interactions.contains($0.status) })
        {
            return false
        }
        let inserted = pageView.insert(Reported(actionID: actionID, status: status, argument: argument)).inserted
        if !inserted, status == "error" { droppedErrors += 1 }
        return inserted
    }

    mutating func close(actionID: Int, sessions: Int, sessionID: String?) {
        saved.dontShow.close(actionID: actionID, sessions: sessions, sessionID: sessionID)
        savedGeneration += 1
    }

    // MARK: Sessions

    /// Counts a call at `uptime` as activity in the current session, or starts a new session when there is none or
    /// the current one has ended under `policy`. Returns whether a session started.
    mutating func continueSession(at uptime: Duration, policy: SessionPolicy) -> Bool {
        if var live = session, !live.hasEnded(at: uptime, policy: policy) {
            live.lastActivityUptime = max(live.lastActivityUptime, uptime)
            session = live
            return false
        }
        startSession(at: uptime)
        return true
    }

    /// Starts a new session at `uptime`, counting every closed action down.
    mutating func startSession(at uptime: Duration) {
        let started = TrackerSession(startUptime: uptime)
        session = started
        sessionStarted(started.id)
    }

    /// Counts a new session once, however often it is announced.
    mutating func sessionStarted(_ sessionID: String) {
        guard saved.lastSessionID != sessionID else { return }
        saved.lastSessionID = sessionID
        saved.sessionCount += 1
        saved.dontShow.sessionStarted(sessionID)
        savedGeneration += 1
    }

    /// Starts a fresh page view and forgets the cached result, for an explicit new session.
    mutating func startOver() {
        pageView.removeAll()
        cached = nil
        resultGeneration += 1
    }

    // MARK: Answers

    /// Takes an answer for the commands up to `sentUpTo`: drops them from the pending list and updates the
    /// cache. Returns whether the cache changed.
    mutating func accept(_ answer: TrackerResult, sentUpTo: UInt64, incremental: Bool) -> Bool {
        if !saved.pending.isEmpty {
            saved.pending.removeAll { $0.sequence <= sentUpTo }
            savedGeneration += 1
        }
        let updated: TrackerResult
        if incremental, !replaceOnNextAnswer, let cached {
            updated = Self.merge(answer, into: cached)
        } else {
            updated = answer
        }
        replaceOnNextAnswer = false
        guard updated != cached else { return false }
        cached = updated
        resultGeneration += 1
        return true
    }

    /// `result` without the actions hidden now, and the actions taken out.
    func visible(_ result: TrackerResult) -> (visible: TrackerResult, hidden: [ContentAction]) {
        guard !saved.dontShow.entries.isEmpty else { return (result, []) }
        var visible = result
        var hidden: [ContentAction] = []
        visible.actions.removeAll { action in
            guard saved.dontShow.isHidden(action.id) else { return false }
            hidden.append(action)
            return true
        }
        return (visible, hidden)
    }

    /// New answers replace actions and conditions with the same id and add new ones; the rest stay.
    static func merge(_ answer: TrackerResult, into cached: TrackerResult) -> TrackerResult {
        let newActionIDs = Set(answer.actions.map(\.id))
        let newConditionIDs = Set(answer.conditions.map(\.id))
        return TrackerResult(
            conditions: cached.conditions.filter { !newConditionIDs.contains($0.id) } + answer.conditions,
            actions: cached.actions.filter { !newActionIDs.contains($0.id) } + answer.actions
        )
    }
}
