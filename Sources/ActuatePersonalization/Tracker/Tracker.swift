import Actuate
import ActuateReporting
import Dispatch
import Foundation
import Synchronization

/// Asks what content to show, and records what the user does: behaviour, impressions, clicks, closes and
/// errors, through the dispatcher and the reporting layer.
///
/// ```swift
/// let tracker = Tracker(
///     source: try LocalDecisionSource(contentsOf: rulesURL),
///     reporter: reporter,
///     directory: supportDirectory.appendingPathComponent("tracker")
/// )
/// try tracker.navigate(documentName: "home")
/// try tracker.productViewed(productID: "sku-1")
/// let result = try await tracker.getResult()
/// result.actions.first?.render(on: surface) { clicked in print(clicked.status) }
/// ```
///
/// Every report is performed as an action of `PersonalizationFeature` in the tracker's session, so it
/// appears in the timeline, action stacks and analytics, and reaches the `Reporter` through its
/// `ReportingPlugin`; install that plugin on the session's dispatcher.
///
/// Rules the tracker keeps:
/// - One of each status per action and page view (since the last navigate or ``startNewSession()``);
///   `executed` is dropped once a click or close was reported for the action.
/// - `close(dontShowSessions: N)` hides the action for N sessions, counting the one it is closed in (at least for
///   the rest of that one). Each new tracker session counts down by one; the counts survive relaunches. A hidden
///   action the source returns is left out of the result and reported once per page view as `dont-show`.
/// - The tracker's sessions follow Personyze's rule by default (``defaultSessionPolicy``): a new one starts on
///   ``startNewSession()``, at the first call of a launch, or at the first call 90 minutes or more after the
///   session's start, however busy the user was; a call is a behaviour command, ``getResult()`` or a content
///   report. Ending a session after inactivity is an option (`SessionPolicy(inactivityTimeout:)`). Time is the
///   reporter's clock. These sessions are the tracker's own: the reporter's (the visits of statistics) keep
///   their own `SessionPolicy`.
/// - Results are cached on disk. A failing source never changes the cache: ``getResult()`` throws
///   ``TrackerError/decisionFailed(reason:lastGoodResult:)`` with the last good result. Pending commands leave
///   the list only when a source has answered for them.
///
/// ## Files and what a crash can lose
///
/// The tracker keeps its state (sessions, don't-show counts, pending commands, profile) in `tracker-state.json`
/// and its cached result in `tracker-result.json`, in its directory. It writes them behind the caller, like the
/// journal's group commit: a call takes a snapshot under the tracker's lock and returns; the tracker's own writer
/// queue encodes and writes the newest snapshot, and snapshots taken while a write runs are coalesced into the
/// next one. No call of the tracker waits for the disk on the caller's thread.
///
/// - What a crash can lose: the changes the last finished write did not hold, at most about two writes' time (the
///   write in flight and the one before it; each an encode and an `fsync`, a few milliseconds on a phone's flash,
///   more on a busy disk): the newest page views, behaviour commands or cached result. Never a damaged
///   file: each file is replaced whole (written to a temporary file, synced, renamed), so a relaunch reads the
///   last complete snapshot.
/// - A close is not durable when ``ContentAction/reportClose(dontShowSessions:)`` or ``reportActionClicked(_:)``
///   returns: its don't-show count reaches the disk with the next write, a few milliseconds later. A crash in
///   that window shows the closed action again after the relaunch. Call ``waitForWrites()`` when a close must
///   be on disk before the app goes on.
/// - Releasing the tracker loses nothing: the writer keeps the pending snapshot and writes it. Before the app
///   is suspended or the process exits, `await tracker.waitForWrites()`.
/// - Storage problems reach `onError` from the writer queue.
public final class Tracker: Sendable {
    struct Core: Sendable {
        var tracker = TrackerState()
    }

    let source: any DecisionSource
    let reporter: Reporter
    /// The action session the tracker's actions are performed in (not one of the tracker's own sessions).
    package let actionSession: ActionSession
    let storage: TrackerStorage
    /// Write the state and the cached result behind the caller, on the tracker's writer queue.
    let stateWriter: WriteBehind<TrackerState.Saved>
    let resultWriter: WriteBehind<TrackerResult?>
    /// The serial queue both writers run on.
    let writerQueue: DispatchQueue
    let onError: (@Sendable (TrackerError) -> Void)?
    /// The rules that end the tracker's sessions.
    let sessionPolicy: SessionPolicy
    let core: Mutex<Core>
    let inFlight = InFlightReports()
    let problems: TrackerProblemSink

    /// Creates a tracker, reading its state and cached result from `directory`.
    ///
    /// Unreadable files are moved aside and reported through `onError` and `lastError`; the tracker then
    /// starts without them.
    /// - Parameters:
    ///   - source: Decides what to show.
    ///   - reporter: The reporter whose sessions the tracker follows and whose identity names the visitor.
    ///   - directory: Where the tracker keeps its files; created when first written.
    ///   - session: The session the tracker performs its actions in; `ActionSession/main` by default.
    ///   - sessionPolicy: The rules that end the tracker's sessions, measured on the reporter's clock: by default
    ///     ``defaultSessionPolicy``, Personyze's 90 minutes from the start. Pass, for example,
    ///     `SessionPolicy(maximumLength: .seconds(90 * 60), inactivityTimeout: .seconds(30 * 60))` to also end
    ///     a session after 30 minutes without a call.
    ///   - onError: Called with every storage problem, outside the tracker's lock; problems with writing the files
    ///     are reported from the tracker's writer queue.
    public init(
        source: any DecisionSource,
        reporter: Reporter,
        directory: URL,
        session: ActionSession = .main,
        sessionPolicy: SessionPolicy = Tracker.defaultSessionPolicy,
        onError: (@Sendable (TrackerError) -> Void)? = nil
    ) {
        self.source = source
        self.reporter = reporter
        self.actionSession = session
        self.sessionPolicy = sessionPolicy
        let storage = TrackerStorage(directory: directory)
        self.storage = storage
        self.onError = onError
        // The writers hold the storage and the error sink, never the tracker: a tracker released with a snapshot
        // pending is still written.
        let problems = TrackerProblemSink(onError: onError)
        let writerQueue = DispatchQueue(label: "actuate.personalization.tracker.writer")
        self.writerQueue = writerQueue
        self.stateWriter = WriteBehind(queue: writerQueue) { saved, generation in
            if let problem = storage.save(saved, generation: generation) { problems.report(problem) }
        }
        self.resultWriter = WriteBehind(queue: writerQueue) { result, generation in
            if let problem = storage.save(result, generation: generation) { problems.report(problem) }
        }
        self.problems = problems
        let loaded = storage.load()
        var state = TrackerState()
        if let saved = loaded.saved { state.saved = saved }
        state.cached = loaded.result
        self.core = Mutex(Core(tracker: state))
        for problem in loaded.problems { problems.report(problem) }
    }

    /// Personyze's session rule: a session lasts 90 minutes from its start ("By default the session is 1.5
    /// hours"), and inactivity does not end it.
    public static let defaultSessionPolicy = SessionPolicy(maximumLength: .seconds(90 * 60), inactivityTimeout: nil)

    // MARK: Results

    /// Decides what to show now.
    ///
    /// An incremental source (a server) is asked only when behaviour commands are pending or nothing is
    /// cached; otherwise the cached result answers, also right after launch. A local source is asked every
    /// time. Actions the user closed are left out, and reported as `dont-show`. When the tracker's session has
    /// ended, or none started yet in this launch, a new one starts first.
    /// - Returns: The matched conditions and the actions to show, attached to this tracker.
    /// - Throws: ``TrackerError/decisionFailed(reason:lastGoodResult:)`` when the source fails; the cache and
    ///   the pending commands are kept.
    public func getResult() async throws(TrackerError) -> TrackerResult {
        continueSession()
        let visitor = reporter.identity.current
        let incremental = source.isIncremental
        let plan = core.withLock { core -> (request: DecisionRequest?, sentUpTo: UInt64, cached: TrackerResult?) in
            if incremental, core.tracker.saved.pending.isEmpty, let cached = core.tracker.cached {
                return (nil, 0, cached)
            }
            let request = DecisionRequest(
                visitorID: visitor.anonymousID,
                userID: visitor.userID,
                sessionCount: max(1, core.tracker.saved.sessionCount),
                commands: core.tracker.saved.pending.map(\.command),
                profile: core.tracker.saved.profile
            )
            return (request, core.tracker.saved.pending.last?.sequence ?? 0, nil)
        }
        guard let request = plan.request else {
            return deliver(plan.cached ?? .empty)
        }
        // Pending commands and the profile are handed to the writer before any network call (written behind, within
        // the loss window); unchanged state is not handed over again.
        persistState()
        let answer: TrackerResult
        do {
            answer = try await source.decide(request)
        } catch {
            let lastGood = core.withLock { core in core.tracker.cached.map { core.tracker.visible($0).visible } }
            throw .decisionFailed(reason: Self.describe(error), lastGoodResult: lastGood.map(attach))
        }
        let changed = core.withLock { core in
            core.tracker.accept(answer, sentUpTo: plan.sentUpTo, incremental: incremental)
        }
        if changed { persistResult() }
        if !request.commands.isEmpty { persistState() }
        return deliver(core.withLock { $0.tracker.cached } ?? .empty)
    }

    /// The cached result, without hidden actions and attached to this tracker, or nil when there is none.
    var cachedResult: TrackerResult? {
        core.withLock { core in core.tracker.cached.map { core.tracker.visible($0).visible } }.map(attach)
    }

    /// Leaves out hidden actions, reports them as `dont-show`, and attaches the rest.
    private func deliver(_ result: TrackerResult) -> TrackerResult {
        let (visible, hidden) = core.withLock { $0.tracker.visible(result) }
        reportSuppressed(hidden)
        return attach(visible)
    }

    private func attach(_ result: TrackerResult) -> TrackerResult {
        TrackerResult(conditions: result.conditions, actions: result.actions.map { $0.attached(to: self) })
    }

    private static func describe(_ error: any Error) -> String {
        String(describing: error)
    }

    // MARK: Sessions

    /// Starts a new session now, which counts down every closed action and starts a fresh page view, and clears
    /// the cached result, as Personyze does; the reporter starts a new session (a new visit) too.
    public func startNewSession() {
        let uptime = reporter.scheduler.uptime()
        let generation = core.withLock { core -> UInt64 in
            core.tracker.startOver()
            core.tracker.startSession(at: uptime)
            return core.tracker.resultGeneration
        }
        resultWriter.submit(nil, generation: generation)
        persistState()
        _ = reporter.startNewSession()
    }

    /// The number of tracker sessions that have started, across launches.
    package var sessionCount: Int { core.withLock { $0.tracker.saved.sessionCount } }

    /// The sessions after the current one that the action stays hidden, or nil when it is not hidden.
    /// - Parameter actionID: The action's id.
    /// - Returns: The remaining sessions, or nil.
    public func hiddenSessionsRemaining(actionID: Int) -> Int? {
        core.withLock { $0.tracker.saved.dontShow.remainingSessions(actionID) }
    }

    /// Everything the tracker knows about the visitor's behaviour.
    package var profile: VisitorProfile { core.withLock { $0.tracker.saved.profile } }

    /// The behaviour commands not yet answered for by an incremental source.
    var pendingCommands: [BehaviourCommand] { core.withLock { $0.tracker.saved.pending.map(\.command) } }

    /// The most recent storage problem, if any.
    package var lastError: TrackerError? { problems.last }

    /// How many `error` reports the tracker dropped, over its life, because their action had already reported
    /// an error in the page view.
    ///
    /// A rendered action reports each refused bridge message as an error (see
    /// ``ContentAction/render(on:bridge:clickedCallback:)``); like every status, one is recorded per action and
    /// page view, so a page that floods the bridge with bad messages gives one `error` event, and the rest are
    /// counted here.
    public var droppedErrorCount: Int { core.withLock { $0.tracker.droppedErrors } }

    /// Counts a call as activity in the tracker's session, starting a new session when it has ended under
    /// ``sessionPolicy`` or none has started in this launch.
    func continueSession() {
        let uptime = reporter.scheduler.uptime()
        let started = core.withLock { $0.tracker.continueSession(at: uptime, policy: sessionPolicy) }
        if started { persistState() }
    }

    // MARK: Storage

    /// Waits until the tracker's state and cached result, as they were when the call began, are on disk.
    ///
    /// The tracker writes its files behind the caller, on a writer queue of its own: calls such as
    /// ``navigate(documentName:)``, ``getResult()`` and a close return without waiting for the disk, and a crash
    /// can lose what changed in the last few milliseconds (see "Files and what a crash can lose"). Call this before the
    /// app is suspended, or in a test before reading the files or relaunching over the same directory.
    ///
    /// ```swift
    /// try tracker.navigate(documentName: "checkout")
    /// await tracker.waitForWrites()   // tracker-state.json now holds the page view
    /// ```
    public func waitForWrites() async {
        await stateWriter.wait()
        await resultWriter.wait()
    }

    /// Hands the state to the writer when it changed since the last snapshot handed over; the snapshot is taken
    /// under the lock, and encoding and writing happen on the writer queue.
    func persistState() {
        let snapshot = core.withLock { core -> (saved: TrackerState.Saved, generation: UInt64)? in
            // Most calls change nothing: skip copying the state then.
            guard stateWriter.wants(generation: core.tracker.savedGeneration) else { return nil }
            return (core.tracker.saved, core.tracker.savedGeneration)
        }
        if let snapshot { stateWriter.submit(snapshot.saved, generation: snapshot.generation) }
    }

    func handle(_ problem: TrackerError) {
        problems.report(problem)
    }

    private func persistResult() {
        let snapshot = core.withLock { ($0.tracker.cached, $0.tracker.resultGeneration) }
        resultWriter.submit(snapshot.0, generation: snapshot.1)
    }
}

/// Where the tracker's storage problems go: kept as the last one, and passed to the app's handler. Shared by the
/// tracker and its writers, so a write that fails after the tracker is released is still reported.
final class TrackerProblemSink: Sendable {
    private let lastProblem = Mutex<TrackerError?>(nil)
    let onError: (@Sendable (TrackerError) -> Void)?

    init(onError: (@Sendable (TrackerError) -> Void)?) {
        self.onError = onError
    }

    func report(_ problem: TrackerError) {
        lastProblem.withLock { $0 = problem }
        onError?(problem)
    }

    var last: TrackerError? { lastProblem.withLock { $0 } }
}
