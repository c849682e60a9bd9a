import Actuate
import Foundation
import Synchronization

/// The front door of the reporting layer: it turns what happened into ``ReportEvent`` values, with identity,
/// session and consent applied, and appends them to an ``EventStore`` before telling delivery about them.
///
/// ```swift
/// let reporter = Reporter(
///     store: try FileEventStore(directory: eventsDirectory),
///     delivery: uploader,
///     scheduler: SystemScheduler.shared,
///     identity: Identity(storage: FileIdentityStorage(directory: supportDirectory))
/// )
/// let banner = ContentReference(source: ContentSource(rawValue: "banner"), id: "7", name: "Summer banner")
/// reporter.record(type: .executed, properties: EventProperties.content(banner))
/// reporter.record(type: .purchase, properties: EventProperties.purchase(productIDs: ["sku-1"]))
/// ```
///
/// Recording is serialized: each event is appended, with any session start or end it causes, under one lock,
/// so events reach the store in the order of the session rules. Delivery is told afterwards, outside the lock.
/// Nothing here crashes on a refused append: the failure is returned, counted in `failedAppendCount`, kept in
/// `lastError` and passed to the `onError` handler of ``ReporterConfiguration``.
///
/// Tracking consent follows the rules documented on ``TrackingConsent``.
///
/// A session the previous launch left open on the same store (a `FileEventStore` or `MemoryEventStore`; the app
/// was killed before it ended) is ended when the reporter is made: its `session_end` is recorded at its last
/// activity (to within a second), with reason `foundOpenAtLaunch`.
public final class Reporter: Sendable {
    struct State {
        var sessions: SessionStateMachine
        var consent: TrackingConsent
        var suppressed = 0
        var purged = 0
        var failedAppends = 0
        var lastError: ReportingError?
        /// The open session as last noted in the store (see `keepOpen`).
        var keptOpen: OpenSessionRecord?
        var resetHandlers: [@Sendable () -> Void] = []
        var sessionStartHandlers: [@Sendable (ReportingSession) -> Void] = []
    }

    /// What one locked step produced, handled after the lock is released.
    struct StepResult {
        var outcome: RecordOutcome = .suppressed
        var appended = 0
        var errors: [ReportingError] = []
        var started: ReportingSession?
        var startHandlers: [@Sendable (ReportingSession) -> Void] = []
    }

    let store: any EventStore
    /// The store, when it keeps the open session's record for the next launch.
    let openSessionKeeper: (any OpenSessionKeeping)?
    let delivery: (any EventDelivery)?
    /// The clock the reporter reads for timestamps (`now()`) and session rules (`uptime()`); parts built on the
    /// reporter, such as a personalization tracker, read the same one, so a system runs on one clock.
    package let scheduler: any ActuateScheduler
    let onError: (@Sendable (ReportingError) -> Void)?
    let state: Mutex<State>

    /// The identity whose ids every event carries.
    package let identity: Identity

    /// Creates a reporter.
    /// - Parameters:
    ///   - store: Where events are appended.
    ///   - delivery: The uploader, told about appended events and asked to flush; nil to keep events in the store
    ///     only.
    ///   - scheduler: The clock for timestamps (`now()`) and session rules (`uptime()`).
    ///   - identity: The anonymous and user ids.
    ///   - configuration: Session rules, initial consent and the error handler.
    public convenience init(
        store: any EventStore,
        delivery: EventUploader?,
        scheduler: any ActuateScheduler,
        identity: Identity,
        configuration: ReporterConfiguration = ReporterConfiguration()
    ) {
        self.init(
            store: store,
            eventDelivery: delivery,
            scheduler: scheduler,
            identity: identity,
            configuration: configuration
        )
    }

    /// Creates a reporter that tells any ``EventDelivery`` about appended events, such as a test's fake.
    package init(
        store: any EventStore,
        eventDelivery delivery: (any EventDelivery)?,
        scheduler: any ActuateScheduler,
        identity: Identity,
        configuration: ReporterConfiguration = ReporterConfiguration()
    ) {
        self.store = store
        self.openSessionKeeper = store as? any OpenSessionKeeping
        self.delivery = delivery
        self.scheduler = scheduler
        self.identity = identity
        self.onError = configuration.onError
        var initial = State(
            sessions: SessionStateMachine(policy: configuration.sessionPolicy),
            consent: configuration.initialConsent
        )
        initial.lastError = identity.loadError
        state = Mutex(initial)
        if let error = identity.loadError { onError?(error) }
        endSessionFoundOpen()
    }

    // MARK: Recording

    /// Records an event of any type.
    ///
    /// The event gets a new UUID, the scheduler's current time, the current session (starting one if there is
    /// none or it expired) and the identity's ids. It is appended to the store before delivery is told.
    /// - Parameters:
    ///   - type: The event type. `session_start` and `session_end` are managed by the reporter and refused, and a
    ///     content status type needs an `actionId` property (see ``EventProperties/content(_:)``).
    ///   - properties: The event's properties. A `tracking_forced` property is only kept when `forceTracking`
    ///     is true.
    ///   - forceTracking: Stores the event even while consent is denied, tagged `tracking_forced = true`.
    /// - Returns: Whether the event was stored, suppressed by consent, or failed.
    @discardableResult
    public func record(
        type: ReportEventType,
        properties: [String: JSONValue] = [:],
        forceTracking: Bool = false
    ) -> RecordOutcome {
        if let problem = validate(type: type, properties: properties) {
            report([problem])
            return .failed(problem)
        }
        var properties = properties
        properties.removeValue(forKey: ReportEventKey.trackingForced)
        if forceTracking {
            properties[ReportEventKey.trackingForced] = true
        }
        let ids = identity.current
        let result = state.withLock { state -> StepResult in
            let now = scheduler.now()
            let transition = state.sessions.recordActivity(uptime: scheduler.uptime(), date: now) {
                UUID().uuidString
            }
            var result = StepResult()
            appendSessionEvents(for: transition, ids: ids, state: &state, result: &result)
            keepOpen(transition.current, at: now, ids: ids, state: &state)
            let event = ReportEvent(
                type: type.rawValue,
                timestamp: now,
                sessionID: transition.current.id,
                anonymousID: ids.anonymousID,
                userID: ids.userID,
                properties: properties
            )
            result.outcome = append(event, allowed: forceTracking || state.consent == .granted, state: &state)
            if case .stored = result.outcome { result.appended += 1 }
            if case .failed(let error) = result.outcome { result.errors.append(error) }
            return result
        }
        finish(result)
        return result.outcome
    }

    // MARK: Sessions

    /// The session the next event joins, or nil when there is none or it has expired.
    package var currentSession: ReportingSession? {
        let uptime = scheduler.uptime()
        return state.withLock { $0.sessions.liveSession(at: uptime) }
    }

    /// Ends the current session and starts a new one now, recording both boundaries.
    /// - Returns: The new session.
    @discardableResult
    public func startNewSession() -> ReportingSession {
        let ids = identity.current
        let (result, session) = state.withLock { state -> (StepResult, ReportingSession) in
            let transition = state.sessions.startNewSession(uptime: scheduler.uptime(), date: scheduler.now()) {
                UUID().uuidString
            }
            var result = StepResult()
            appendSessionEvents(for: transition, ids: ids, state: &state, result: &result)
            keepOpen(transition.current, at: transition.current.startDate, ids: ids, state: &state)
            return (result, transition.current)
        }
        finish(result)
        return session
    }

    /// Ends the current session, if any, recording its end; the next event starts a new one.
    public func endSession() {
        endSession(reason: .ended)
    }

    /// Runs `handler` after each session start, outside the reporter's lock, for features that count sessions.
    /// - Parameter handler: Receives the new session.
    package func onSessionStart(_ handler: @escaping @Sendable (ReportingSession) -> Void) {
        state.withLock { $0.sessionStartHandlers.append(handler) }
    }

    // MARK: Consent

    /// The current tracking consent.
    public var trackingConsent: TrackingConsent { state.withLock { $0.consent } }

    /// Changes tracking consent, following the rules on ``TrackingConsent``.
    ///
    /// Withdrawing consent removes the pending events recorded under consent from the store, keeping forced ones.
    /// - Parameter consent: The new consent.
    public func setTrackingConsent(_ consent: TrackingConsent) {
        let errors = state.withLock { state -> [ReportingError] in
            let previous = state.consent
            state.consent = consent
            guard previous == .granted, consent == .denied else { return [] }
            do {
                let pending = try store.fetch(count: try store.count(), maxBytes: Int.max / 2)
                let unforced = Set(pending.lazy.filter { !$0.isTrackingForced }.map(\.id))
                try store.remove(ids: unforced)
                state.purged += unforced.count
                return []
            } catch {
                let problem = ReportingError.storeFailed(
                    operation: "purge events after consent was withdrawn",
                    reason: String(describing: error)
                )
                state.lastError = problem
                return [problem]
            }
        }
        report(errors, alreadyStored: true)
    }

    // MARK: Identity

    /// Attaches a user id to events from now on, and stores it for later launches.
    /// - Parameter userID: The user's id in the app's own system.
    /// - Throws: ``ReportingError/invalidUserID`` when `userId` is empty.
    public func identify(userID: String) throws(ReportingError) {
        if let problem = try identity.setUserID(userID) {
            report([problem])
        }
    }

    /// Starts over as a new anonymous user.
    ///
    /// In this order: ends the current session under the old identity, flushes what is pending (awaiting
    /// the uploader's `flushNow()`), then gives the identity a new anonymous id and no user id, and finally runs
    /// the `onReset(_:)` handlers so that caps and caches are cleared. Events recorded by other threads while
    /// the flush runs still carry the old identity.
    public func reset() async {
        endSession(reason: .reset)
        await delivery?.flushNow()
        if let problem = identity.rotate() {
            report([problem])
        }
        let handlers = state.withLock { $0.resetHandlers }
        for handler in handlers { handler() }
    }

    /// Runs `handler` at the end of every ``reset()``, after the identity changed; features register here to
    /// clear per-user caps and caches.
    /// - Parameter handler: The work to run.
    package func onReset(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.resetHandlers.append(handler) }
    }

    // MARK: Delivery

    /// Asks delivery to upload what is stored now, and returns when that attempt has finished.
    public func flush() async {
        await delivery?.flushNow()
    }

    // MARK: Diagnostics

    /// The number of events not stored because tracking consent was denied.
    public var suppressedEventCount: Int { state.withLock { $0.suppressed } }

    /// The number of pending events removed from the store because consent was withdrawn.
    package var purgedEventCount: Int { state.withLock { $0.purged } }

    /// The number of events the store refused.
    package var failedAppendCount: Int { state.withLock { $0.failedAppends } }

    /// The most recent problem, if any.
    package var lastError: ReportingError? { state.withLock { $0.lastError } }
}
