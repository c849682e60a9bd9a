import Foundation

/// The campaign delivery rules, as a state machine with no I/O: contexts, their handlers and held campaigns,
/// screen lifecycles, app and user activity, and view time. Every step takes the current time and returns the
/// effects for its driver, ``CampaignEngine``, to perform.
///
/// The rules:
/// - A context is active when it is visible (the global context always is), the app is in the foreground and
///   the user is not idle.
/// - A campaign identical to the one last delivered to its context and target less than ``duplicateWindow``
///   ago, or to the one held for them, is dropped; after the window the same campaign is delivered again. The
///   global context's deliveries are kept across launches (``restoreDeliveries(_:date:now:)``); a screen's
///   end with the screen, as they do within a launch.
/// - Otherwise it is delivered when the context is active and has a handler for its target, and held when not;
///   a newer campaign for the same target replaces (drops) the held one.
/// - Held campaigns are delivered when the context becomes active or a handler for their target is set.
/// - A screen that is not visible has ``visibilityTimeout`` to become visible, else it loses its handlers,
///   held campaigns and delivery memory; it loses them too when it will disappear.
struct CampaignDeliveryState: Sendable {
    let idleThreshold: Duration
    let visibilityTimeout: Duration
    /// How long a delivered campaign keeps an identical one from being delivered again to its context and target.
    let duplicateWindow: Duration
    var isInForeground = true
    var isIdle = false
    var lastActivity: Duration
    var idleCheckArmed = false
    var contexts: [UInt64: CampaignContextState] = [:]
    private var nextID: UInt64 = 1
    private var nextGeneration: UInt64 = 1

    /// The id of the global context, which exists from the start.
    static let globalID: UInt64 = 0

    init(
        idleThreshold: Duration,
        visibilityTimeout: Duration,
        duplicateWindow: Duration = .seconds(30 * 60),
        now: Duration
    ) {
        self.idleThreshold = idleThreshold
        self.visibilityTimeout = visibilityTimeout
        self.duplicateWindow = duplicateWindow
        self.lastActivity = now
        var global = CampaignContextState(name: "global", isScreen: false)
        global.wasActive = true
        contexts[Self.globalID] = global
    }

    /// Starts the global context's duplicate window from deliveries an earlier launch made: each delivered at
    /// its wall-clock date counts as delivered that long before `now`, and those already outside the window are
    /// forgotten. A date after `date` (the wall clock went back) counts as delivered now.
    /// - Parameters:
    ///   - deliveries: The campaigns and when they were delivered, on the wall clock.
    ///   - date: The wall-clock time now.
    ///   - now: The monotonic time now.
    mutating func restoreDeliveries(_ deliveries: [(campaign: Campaign, date: Date)], date: Date, now: Duration) {
        for (campaign, delivered) in deliveries {
            let elapsed = max(0, date.timeIntervalSince(delivered))
            guard elapsed < duplicateWindow.seconds else { continue }
            let at = now - .milliseconds(Int64((elapsed * 1000).rounded()))
            contexts[Self.globalID]?.lastDelivered[campaign.target] = DeliveredCampaign(campaign: campaign, at: at)
        }
    }

    // MARK: Activity

    func isActive(_ context: CampaignContextState) -> Bool {
        inactivityCauses(context).isEmpty
    }

    func inactivityCauses(_ context: CampaignContextState) -> [InactivityCause] {
        var causes: [InactivityCause] = []
        if context.phase != .visible { causes.append(.screenNotVisible) }
        if !isInForeground { causes.append(.appInBackground) }
        if isIdle { causes.append(.userIdle) }
        return causes
    }

    func isActive(contextID: UInt64) -> Bool {
        contexts[contextID].map(isActive) ?? false
    }

    /// Arms the first idle check; call once, when the driver starts.
    mutating func start() -> CampaignEffects {
        idleCheckArmed = true
        return CampaignEffects(timers: [.idleCheck(after: idleThreshold)])
    }

    mutating func setForeground(_ inForeground: Bool, now: Duration) -> CampaignEffects {
        isInForeground = inForeground
        return refresh(now: now, change: .appForeground)
    }

    /// The user did something: they are no longer idle, and the idle clock starts again.
    mutating func userActivity(now: Duration) -> CampaignEffects {
        lastActivity = now
        var effects = CampaignEffects()
        if isIdle {
            isIdle = false
            effects += refresh(now: now, change: .userActive)
        }
        if !idleCheckArmed {
            idleCheckArmed = true
            effects.timers.append(.idleCheck(after: idleThreshold))
        }
        return effects
    }

    mutating func idleCheckFired(now: Duration) -> CampaignEffects {
        idleCheckArmed = false
        let quiet = now - lastActivity
        guard quiet >= idleThreshold else {
            idleCheckArmed = true
            return CampaignEffects(timers: [.idleCheck(after: idleThreshold - quiet)])
        }
        isIdle = true
        return refresh(now: now, change: .userActive)
    }

    /// Re-evaluates every context's activity: pauses or resumes view time, and delivers held campaigns of the
    /// contexts that became active.
    private mutating func refresh(now: Duration, change: ActivityChange) -> CampaignEffects {
        var effects = CampaignEffects()
        for id in contexts.keys.sorted() {
            effects += refresh(contextID: id, now: now, change: change)
        }
        return effects
    }

    private mutating func refresh(contextID: UInt64, now: Duration, change: ActivityChange) -> CampaignEffects {
        guard var context = contexts[contextID] else { return CampaignEffects() }
        let active = isActive(context)
        guard active != context.wasActive else { return CampaignEffects() }
        context.wasActive = active
        if active {
            context.view?.activeSince = now
        } else {
            context.view?.pause(at: now)
        }
        contexts[contextID] = context
        guard active else { return CampaignEffects() }
        var effects = CampaignEffects()
        for target in context.held.keys.sorted() where context.handlers[target] != nil {
            effects += releaseHeld(target: target, contextID: contextID, reason: .contextBecameActive(change), now: now)
        }
        return effects
    }

    // MARK: Contexts

    mutating func addScreen(named name: String) -> (UInt64, CampaignEffects) {
        let id = nextID
        nextID += 1
        contexts[id] = CampaignContextState(name: name, isScreen: true)
        return (id, armVisibilityTimer(contextID: id))
    }

    mutating func removeContext(_ contextID: UInt64, now: Duration) -> CampaignEffects {
        guard var context = contexts.removeValue(forKey: contextID) else { return CampaignEffects() }
        var effects = CampaignEffects()
        if let record = context.endView(at: now) { effects.viewTimes.append(record) }
        for (_, campaign) in context.held.sorted(by: { $0.key < $1.key }) {
            effects.decisions.append(decision(.drop, campaign, context, .contextReleased))
        }
        return effects
    }

    mutating func willAppear(_ contextID: UInt64) -> CampaignEffects {
        guard var context = contexts[contextID], context.isScreen, context.phase != .visible else {
            return CampaignEffects()
        }
        context.phase = .appearing
        contexts[contextID] = context
        return armVisibilityTimer(contextID: contextID)
    }

    mutating func didAppear(_ contextID: UInt64, now: Duration) -> CampaignEffects {
        guard var context = contexts[contextID], context.isScreen else { return CampaignEffects() }
        context.phase = .visible
        context.visibilityTimer = nil
        contexts[contextID] = context
        return refresh(contextID: contextID, now: now, change: .screenAppeared)
    }

    mutating func willDisappear(_ contextID: UInt64, now: Duration) -> CampaignEffects {
        guard var context = contexts[contextID], context.isScreen else { return CampaignEffects() }
        context.phase = .disappeared
        context.visibilityTimer = nil
        contexts[contextID] = context
        var effects = refresh(contextID: contextID, now: now, change: .screenAppeared)
        if let record = contexts[contextID]?.flushView(at: now) { effects.viewTimes.append(record) }
        effects += clear(contextID: contextID, reason: .screenDisappeared)
        return effects
    }

    mutating func visibilityTimerFired(_ contextID: UInt64, generation: UInt64) -> CampaignEffects {
        guard let context = contexts[contextID], context.visibilityTimer == generation, context.phase != .visible
        else { return CampaignEffects() }
        contexts[contextID]?.visibilityTimer = nil
        return clear(contextID: contextID, reason: .visibilityTimeout(visibilityTimeout))
    }

    /// Drops held campaigns, removes handlers and forgets deliveries.
    private mutating func clear(contextID: UInt64, reason: CampaignDecisionReason) -> CampaignEffects {
        guard var context = contexts[contextID] else { return CampaignEffects() }
        var effects = CampaignEffects()
        for (_, campaign) in context.held.sorted(by: { $0.key < $1.key }) {
            effects.decisions.append(decision(.drop, campaign, context, reason))
        }
        context.held = [:]
        context.handlers = [:]
        context.lastDelivered = [:]
        context.clearCount += 1
        context.lastClearReason = reason
        contexts[contextID] = context
        return effects
    }

    private mutating func armVisibilityTimer(contextID: UInt64) -> CampaignEffects {
        guard var context = contexts[contextID], context.isScreen, context.phase != .visible,
            context.visibilityTimer == nil
        else { return CampaignEffects() }
        let generation = makeGeneration()
        context.visibilityTimer = generation
        contexts[contextID] = context
        return CampaignEffects(timers: [.visibility(contextID: contextID, generation: generation)])
    }

    // MARK: Handlers and campaigns

    mutating func setHandler(
        _ handler: CampaignHandler?,
        target: String,
        contextID: UInt64,
        now: Duration
    ) -> CampaignEffects {
        guard contexts[contextID] != nil else { return CampaignEffects() }
        guard let handler else {
            contexts[contextID]?.handlers[target] = nil
            return CampaignEffects()
        }
        contexts[contextID]?.handlers[target] = handler
        guard let context = contexts[contextID] else { return CampaignEffects() }
        if isActive(context), context.held[target] != nil {
            return releaseHeld(target: target, contextID: contextID, reason: .handlerSet, now: now)
        }
        return armVisibilityTimer(contextID: contextID)
    }

    /// Decides what to do with a campaign that arrived for a context.
    mutating func receive(
        _ campaign: Campaign,
        contextID: UInt64,
        contextName: String,
        now: Duration
    ) -> CampaignEffects {
        guard var context = contexts[contextID] else {
            let released = CampaignDecision(
                verdict: .drop,
                campaign: campaign,
                contextName: contextName,
                reason: .contextReleased
            )
            return CampaignEffects(decisions: [.init(decision: released, ticket: nil)])
        }
        let target = campaign.target
        if let last = context.lastDelivered[target], last.campaign == campaign, now - last.at < duplicateWindow {
            return CampaignEffects(decisions: [decision(.drop, campaign, context, .duplicate)])
        }
        if context.held[target] == campaign {
            return CampaignEffects(decisions: [decision(.drop, campaign, context, .alreadyHeld)])
        }
        if isActive(context), context.handlers[target] != nil {
            return deliver(campaign, contextID: contextID, reason: .contextActive, now: now)
        }
        var effects = CampaignEffects()
        if let replaced = context.held[target] {
            effects.decisions.append(decision(.drop, replaced, context, .replaced(by: campaign)))
        }
        context.held[target] = campaign
        contexts[contextID] = context
        let causes = inactivityCauses(context)
        effects.decisions.append(
            decision(.hold, campaign, context, causes.isEmpty ? .noHandler : .contextInactive(causes))
        )
        effects += armVisibilityTimer(contextID: contextID)
        return effects
    }

    /// Checks, on the delivery queue, that a delivery decided earlier may still reach its handler.
    mutating func handOver(_ ticket: DeliveryTicket) -> (HandOver, CampaignEffects) {
        guard var context = contexts[ticket.contextID] else {
            return (.notDelivered(CampaignNotDelivered(verdict: .drop, reason: .contextReleased)), CampaignEffects())
        }
        guard context.clearCount == ticket.clearCount else {
            let reason = context.lastClearReason
            return (.notDelivered(CampaignNotDelivered(verdict: .drop, reason: reason)), CampaignEffects())
        }
        let target = ticket.campaign.target
        if isActive(context), let handler = context.handlers[target] {
            return (.deliver(handler), CampaignEffects())
        }
        if context.lastDelivered[target]?.campaign == ticket.campaign {
            context.lastDelivered[target] = ticket.previousDelivered
        }
        if let newer = context.held[target] {
            contexts[ticket.contextID] = context
            let dropped = CampaignNotDelivered(verdict: .drop, reason: .replaced(by: newer))
            return (.notDelivered(dropped), CampaignEffects())
        }
        context.held[target] = ticket.campaign
        contexts[ticket.contextID] = context
        let causes = inactivityCauses(context)
        let held = CampaignNotDelivered(verdict: .hold, reason: causes.isEmpty ? .noHandler : .contextInactive(causes))
        return (.notDelivered(held), armVisibilityTimer(contextID: ticket.contextID))
    }

    private mutating func releaseHeld(
        target: String,
        contextID: UInt64,
        reason: CampaignDecisionReason,
        now: Duration
    ) -> CampaignEffects {
        guard let campaign = contexts[contextID]?.held.removeValue(forKey: target) else { return CampaignEffects() }
        return deliver(campaign, contextID: contextID, reason: reason, now: now)
    }

    private mutating func deliver(
        _ campaign: Campaign,
        contextID: UInt64,
        reason: CampaignDecisionReason,
        now: Duration
    ) -> CampaignEffects {
        guard var context = contexts[contextID] else { return CampaignEffects() }
        let ticket = DeliveryTicket(
            contextID: contextID,
            campaign: campaign,
            clearCount: context.clearCount,
            previousDelivered: context.lastDelivered[campaign.target]
        )
        context.lastDelivered[campaign.target] = DeliveredCampaign(campaign: campaign, at: now)
        contexts[contextID] = context
        let delivery = CampaignDecision(
            verdict: .deliver,
            campaign: campaign,
            contextName: context.name,
            reason: reason
        )
        return CampaignEffects(decisions: [.init(decision: delivery, ticket: ticket)])
    }

    // MARK: Views

    /// Ends the current view of a context and starts a new one, or none.
    mutating func setView(_ view: ViewState?, contextID: UInt64, now: Duration) -> CampaignEffects {
        guard var context = contexts[contextID] else { return CampaignEffects() }
        var effects = CampaignEffects()
        if let record = context.endView(at: now) { effects.viewTimes.append(record) }
        if var view {
            view.accumulated = .zero
            view.activeSince = isActive(context) ? now : nil
            context.view = view
        }
        contexts[contextID] = context
        return effects
    }

    // MARK: Helpers

    private mutating func makeGeneration() -> UInt64 {
        defer { nextGeneration += 1 }
        return nextGeneration
    }

    private func decision(
        _ verdict: CampaignDecision.Verdict,
        _ campaign: Campaign,
        _ context: CampaignContextState,
        _ reason: CampaignDecisionReason
    ) -> CampaignEffects.Decision {
        .init(
            decision: CampaignDecision(verdict: verdict, campaign: campaign, contextName: context.name, reason: reason),
            ticket: nil
        )
    }
}
