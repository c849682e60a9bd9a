import Actuate
import ActuateReporting
import Dispatch
import Synchronization

/// The driver of campaign delivery and tracking: it runs ``CampaignDeliveryState`` under one lock, performs the
/// effects outside it (decisions through the dispatcher, timers on the injected scheduler, events through the
/// reporter), and asks the campaign source one request at a time.
final class CampaignEngine: Sendable {
    struct State: Sendable {
        var delivery: CampaignDeliveryState
        var tracking = TrackingState()
        var requests: [QueuedRequest] = []
        var isFetching = false
        /// Requests, decisions and deliveries started and not yet finished.
        var unfinished = 0
        var settledWaiters: [CheckedContinuation<Void, Never>] = []
    }

    struct QueuedRequest: Sendable {
        var request: CampaignRequest
        var contextID: UInt64
    }

    let reporter: Reporter
    let source: any CampaignSource
    let scheduler: any ActuateScheduler
    let configuration: CampaignConfiguration
    /// Where the cart and the purchased order ids are kept across launches, or nil to keep them in memory only.
    let trackingStore: CampaignTrackingStore?
    /// Writes the tracking snapshots behind the caller, on a writer queue of the engine's own.
    let trackingWriter: WriteBehind<TrackingState.Saved>?
    let state: Mutex<State>

    init(
        reporter: Reporter,
        source: any CampaignSource,
        scheduler: any ActuateScheduler,
        configuration: CampaignConfiguration,
        trackingStore: CampaignTrackingStore? = nil
    ) {
        self.reporter = reporter
        self.source = source
        self.scheduler = scheduler
        self.configuration = configuration
        self.trackingStore = trackingStore
        let delivery = CampaignDeliveryState(
            idleThreshold: configuration.idleThreshold,
            visibilityTimeout: configuration.visibilityTimeout,
            duplicateWindow: configuration.duplicateWindow,
            now: scheduler.uptime()
        )
        let restored = trackingStore?.load()
        let tracking = TrackingState(restoring: restored?.saved ?? .init())
        var restoredDelivery = delivery
        restoredDelivery.restoreDeliveries(
            tracking.recentDeliveries.values.map { ($0.campaign, $0.date) },
            date: scheduler.now(),
            now: scheduler.uptime()
        )
        state = Mutex(State(delivery: restoredDelivery, tracking: tracking))
        // The writer holds the store and a weak link to the engine, so a released engine's last snapshot is still
        // written and the engine is not kept alive by its writer.
        let link = CampaignEngineLink()
        trackingWriter = trackingStore.map { store in
            WriteBehind(queue: DispatchQueue(label: "actuate.personalization.campaigns.writer")) { saved, generation in
                if let problem = store.save(saved, generation: generation) {
                    link.engine?.recordStorageError(problem)
                }
            }
        }
        link.engine = self
        if let problem = restored?.problem { recordStorageError(problem) }
        step { delivery, _ in delivery.start() }
    }

    // MARK: Steps

    /// Runs one step of the delivery rules under the lock, then performs its effects.
    func step(_ body: (inout CampaignDeliveryState, Duration) -> CampaignEffects) {
        stepWithValue { delivery, now in ((), body(&delivery, now)) }
    }

    /// Runs one step of the delivery rules that also gives a value, then performs its effects.
    func stepWithValue<Value>(_ body: (inout CampaignDeliveryState, Duration) -> (Value, CampaignEffects)) -> Value {
        let (value, effects) = state.withLock { state -> (Value, CampaignEffects) in
            let (value, effects) = body(&state.delivery, scheduler.uptime())
            state.unfinished += effects.decisions.count
            return (value, effects)
        }
        perform(effects)
        return value
    }

    /// Reads the delivery state under the lock.
    func read<Value>(_ body: (CampaignDeliveryState) -> Value) -> Value {
        state.withLock { body($0.delivery) }
    }

    /// Changes the tracking state under the lock, then hands the cart, the order ids and the recent deliveries to
    /// the writer when they changed: the caller's thread never writes or syncs the file.
    func tracking<Value>(_ body: (inout TrackingState) -> Value) -> Value {
        let (value, changed) = state.withLock { state -> (Value, (TrackingState.Saved, UInt64)?) in
            let before = state.tracking.savedGeneration
            let value = body(&state.tracking)
            let after = state.tracking.savedGeneration
            return (value, after == before ? nil : (state.tracking.saved, after))
        }
        if let (saved, generation) = changed { trackingWriter?.submit(saved, generation: generation) }
        return value
    }

    fileprivate func recordStorageError(_ message: String) {
        record(
            CampaignEventType.storageError,
            [CampaignEventKey.message: .string(message)],
            contextName: "global"
        )
    }

    /// Counts user activity: the idle clock starts again, and contexts that were inactive only because the user
    /// was idle become active.
    func userActivity() {
        step { delivery, now in delivery.userActivity(now: now) }
    }

    private func perform(_ effects: CampaignEffects) {
        for record in effects.viewTimes {
            recordViewTime(record)
        }
        for timer in effects.timers {
            schedule(timer)
        }
        for decision in effects.decisions {
            dispatch(decision)
        }
    }

    private func schedule(_ timer: CampaignEffects.Timer) {
        switch timer {
        case .visibility(let contextID, let generation):
            scheduler.schedule(after: configuration.visibilityTimeout) { [weak self] in
                self?.step { delivery, _ in delivery.visibilityTimerFired(contextID, generation: generation) }
            }
        case .idleCheck(let delay):
            scheduler.schedule(after: delay) { [weak self] in
                self?.step { delivery, now in delivery.idleCheckFired(now: now) }
            }
        }
    }

    private func dispatch(_ item: CampaignEffects.Decision) {
        let actionSession = configuration.actionSession
        let finished: @Sendable (ActionOutcome) -> Void = { [weak self] _ in self?.finishOne() }
        switch item.decision.verdict {
        case .deliver:
            guard let ticket = item.ticket else { return finishOne() }
            let handOver = CampaignHandOver(queue: configuration.deliveryQueue) { [weak self] in
                self?.handOver(ticket)
                    ?? .failure(error: CampaignNotDelivered(verdict: .drop, reason: .contextReleased))
            }
            actionSession.perform(
                PersonalizationFeature.deliverCampaign,
                input: item.decision,
                presenter: handOver,
                completion: finished
            )
        case .hold:
            actionSession.perform(
                PersonalizationFeature.holdCampaign,
                input: item.decision,
                presenter: (),
                completion: finished
            )
        case .drop:
            actionSession.perform(
                PersonalizationFeature.dropCampaign,
                input: item.decision,
                presenter: (),
                completion: finished
            )
        }
    }

    /// Runs on the delivery queue: checks the context once more and calls the handler outside the lock.
    private func handOver(_ ticket: DeliveryTicket) -> ActionPerformOutcome {
        let (result, effects) = state.withLock { state in
            let (result, effects) = state.delivery.handOver(ticket)
            state.unfinished += effects.decisions.count
            return (result, effects)
        }
        perform(effects)
        switch result {
        case .deliver(let handler):
            if ticket.contextID == CampaignDeliveryState.globalID {
                let window = configuration.duplicateWindow
                tracking { $0.noteDelivered(ticket.campaign, at: scheduler.now(), window: window) }
            }
            handler(ticket.campaign)
            return .success
        case .notDelivered(let reason):
            return .failure(error: reason)
        }
    }

    // MARK: Campaign requests

    /// Queues a request to the campaign source for the reporter's current user; requests are answered one at a
    /// time, in order.
    /// - Parameters:
    ///   - trigger: The tracked event.
    ///   - properties: The properties of the event recorded for it.
    ///   - contextID: The context it happened in.
    ///   - contextName: The context's name.
    func request(
        _ trigger: CampaignTrigger,
        properties: [String: JSONValue],
        contextID: UInt64,
        contextName: String
    ) {
        let request = CampaignRequest(
            trigger: trigger,
            contextName: contextName,
            identity: reporter.identity.current,
            properties: properties
        )
        let queued = QueuedRequest(request: request, contextID: contextID)
        let startFetching = state.withLock { state -> Bool in
            state.unfinished += 1
            state.requests.append(queued)
            guard !state.isFetching else { return false }
            state.isFetching = true
            return true
        }
        if startFetching {
            Task { await self.answerRequests() }
        }
    }

    private func answerRequests() async {
        while let next = nextRequest() {
            do {
                let campaigns = try await source.campaigns(for: next.request)
                step { delivery, now in
                    var effects = CampaignEffects()
                    for campaign in campaigns {
                        effects += delivery.receive(
                            campaign,
                            contextID: next.contextID,
                            contextName: next.request.contextName,
                            now: now
                        )
                    }
                    return effects
                }
            } catch {
                record(
                    CampaignEventType.campaignSourceError,
                    [
                        CampaignEventKey.message: .string(String(describing: error)),
                        "request": .string(next.request.description),
                    ],
                    contextName: next.request.contextName
                )
            }
            finishOne()
        }
    }

    private func nextRequest() -> QueuedRequest? {
        state.withLock { state in
            guard !state.requests.isEmpty else {
                state.isFetching = false
                return nil
            }
            return state.requests.removeFirst()
        }
    }

    // MARK: Settling

    private func finishOne() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.unfinished -= 1
            guard state.unfinished == 0 else { return [] }
            defer { state.settledWaiters = [] }
            return state.settledWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once every request, decision and delivery started so far has finished, and the tracking file holds
    /// what they changed.
    func waitUntilSettled() async {
        await waitUntilDelivered()
        await trackingWriter?.wait()
    }

    /// Returns once every request, decision and delivery started so far has finished, written or not.
    func waitUntilDelivered() async {
        await withCheckedContinuation { continuation in
            let settled = state.withLock { state -> Bool in
                guard state.unfinished > 0 else { return true }
                state.settledWaiters.append(continuation)
                return false
            }
            if settled { continuation.resume() }
        }
    }

    // MARK: Events

    /// Records an event with the context's name and any waiting user and account attributes; the attributes
    /// wait for the next event again when this one is not stored.
    @discardableResult
    func record(_ type: ReportEventType, _ properties: [String: JSONValue], contextName: String) -> RecordOutcome {
        let attributes = tracking { $0.takeAttributes() }
        var all = properties.merging(attributes) { own, _ in own }
        all[CampaignEventKey.context] = .string(contextName)
        let outcome = reporter.record(type: type, properties: all)
        if case .stored = outcome {
        } else if !attributes.isEmpty {
            tracking { $0.restoreAttributes(attributes) }
        }
        return outcome
    }

    /// Puts a purchase ignored for its repeated order id in the timeline ("Ignore Purchase", with its reason), so
    /// that the drop leaves a trace a test and a debug report can read.
    func recordIgnoredPurchase(orderID: String, contextName: String) {
        state.withLock { $0.unfinished += 1 }
        configuration.actionSession.perform(
            PersonalizationFeature.ignorePurchase,
            input: IgnoredPurchase(orderID: orderID, contextName: contextName),
            presenter: ()
        ) { [weak self] _ in self?.finishOne() }
    }

    /// Records a refused tracking call as a ``CampaignEventType/trackingError`` event.
    func recordTrackingError(call: String, message: String, contextName: String) {
        record(
            CampaignEventType.trackingError,
            [CampaignEventKey.call: .string(call), CampaignEventKey.message: .string(message)],
            contextName: contextName
        )
    }

    private func recordViewTime(_ record: ViewTimeRecord) {
        var properties: [String: JSONValue] = [
            CampaignEventKey.item: record.view.item,
            CampaignEventKey.viewType: .string(record.view.viewType.rawValue),
            CampaignEventKey.seconds: .number(record.duration.seconds),
        ]
        if let actionName = record.view.actionName { properties[CampaignEventKey.actionName] = .string(actionName) }
        self.record(CampaignEventType.viewTime, properties, contextName: record.contextName)
    }
}

/// A weak reference from the engine's writer back to the engine, set once the engine exists.
final class CampaignEngineLink: Sendable {
    private struct Weak {
        weak var engine: CampaignEngine?
    }

    private let reference = Mutex(Weak())

    var engine: CampaignEngine? {
        get { reference.withLock { $0.engine } }
        set { reference.withLock { $0.engine = newValue } }
    }
}
