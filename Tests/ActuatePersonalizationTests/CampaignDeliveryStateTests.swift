import Testing

@testable import ActuatePersonalization

/// The delivery rules alone, without I/O: the state machine the engine drives.
@Suite("CampaignDeliveryState")
struct CampaignDeliveryStateTests {
    static let campaign = Campaign.test("c1")

    func makeState() -> CampaignDeliveryState {
        CampaignDeliveryState(idleThreshold: .seconds(60), visibilityTimeout: .seconds(5), now: .zero)
    }

    func verdicts(_ effects: CampaignEffects) -> [String] {
        effects.decisions.map { "\($0.decision.verdict.rawValue) \($0.decision.campaign.campaignID)" }
    }

    @Test("A delivery decided while visible is not handed over after the screen disappeared")
    func handOverAfterDisappear() throws {
        var state = makeState()
        let (screen, _) = state.addScreen(named: "Product")
        _ = state.didAppear(screen, now: .zero)
        _ = state.setHandler({ _ in }, target: "banner", contextID: screen, now: .zero)
        let effects = state.receive(Self.campaign, contextID: screen, contextName: "Product", now: .zero)
        let ticket = try #require(effects.decisions.first?.ticket)
        _ = state.willDisappear(screen, now: .seconds(1))
        guard case .notDelivered(let reason) = state.handOver(ticket).0 else {
            Issue.record("the handler must not run after the screen disappeared")
            return
        }
        #expect(reason == CampaignNotDelivered(verdict: .drop, reason: .screenDisappeared))
    }

    @Test("A delivery decided while active is held again if the app went to the background before hand-over")
    func handOverWhileInactiveHoldsAgain() throws {
        var state = makeState()
        _ = state.setHandler({ _ in }, target: "banner", contextID: CampaignDeliveryState.globalID, now: .zero)
        let ticket = try #require(
            state.receive(Self.campaign, contextID: CampaignDeliveryState.globalID, contextName: "global", now: .zero)
                .decisions.first?.ticket
        )
        _ = state.setForeground(false, now: .seconds(1))
        guard case .notDelivered(let reason) = state.handOver(ticket).0 else {
            Issue.record("the handler must not run while the app is in the background")
            return
        }
        #expect(reason == CampaignNotDelivered(verdict: .hold, reason: .contextInactive([.appInBackground])))
        #expect(reason.description == "not delivered, held instead: the app is in the background")
        let resumed = state.setForeground(true, now: .seconds(2))
        #expect(verdicts(resumed) == ["deliver c1"], "held again, it is delivered when the app returns")
    }

    @Test("A delivery overtaken by a newer held campaign is dropped at hand-over")
    func handOverOvertaken() throws {
        var state = makeState()
        let global = CampaignDeliveryState.globalID
        _ = state.setHandler({ _ in }, target: "banner", contextID: global, now: .zero)
        let ticket = try #require(
            state.receive(Self.campaign, contextID: global, contextName: "global", now: .zero).decisions.first?.ticket
        )
        _ = state.setForeground(false, now: .seconds(1))
        let newer = Campaign.test("c2")
        #expect(verdicts(state.receive(newer, contextID: global, contextName: "global", now: .zero)) == ["hold c2"])
        guard case .notDelivered(let reason) = state.handOver(ticket).0 else {
            Issue.record("the older campaign must not reach the handler")
            return
        }
        #expect(reason == CampaignNotDelivered(verdict: .drop, reason: .replaced(by: newer)))
    }

    @Test("A delivery that did not happen is not remembered as delivered")
    func failedHandOverIsNotADuplicate() throws {
        var state = makeState()
        let global = CampaignDeliveryState.globalID
        _ = state.setHandler({ _ in }, target: "banner", contextID: global, now: .zero)
        let ticket = try #require(
            state.receive(Self.campaign, contextID: global, contextName: "global", now: .zero).decisions.first?.ticket
        )
        _ = state.setForeground(false, now: .seconds(1))
        _ = state.handOver(ticket)
        #expect(state.contexts[global]?.lastDelivered["banner"] == nil)
        #expect(state.contexts[global]?.held["banner"] == Self.campaign)
    }

    /// Evergage drops a campaign identical to the one last delivered, but only for a while: a campaign the server
    /// sends again to the global context after the window reaches the app again.
    @Test("An identical campaign is a duplicate within the duplicate window and delivered again after it")
    func duplicateWindow() {
        var state = CampaignDeliveryState(
            idleThreshold: .seconds(3_600),
            visibilityTimeout: .seconds(5),
            duplicateWindow: .seconds(600),
            now: .zero
        )
        let global = CampaignDeliveryState.globalID
        _ = state.setHandler({ _ in }, target: "banner", contextID: global, now: .zero)
        _ = state.userActivity(now: .zero)
        #expect(
            verdicts(state.receive(Self.campaign, contextID: global, contextName: "global", now: .zero)) == [
                "deliver c1"
            ]
        )
        _ = state.userActivity(now: .seconds(599))
        #expect(
            verdicts(state.receive(Self.campaign, contextID: global, contextName: "global", now: .seconds(599)))
                == ["drop c1"]
        )
        _ = state.userActivity(now: .seconds(600))
        #expect(
            verdicts(state.receive(Self.campaign, contextID: global, contextName: "global", now: .seconds(600)))
                == ["deliver c1"]
        )
        #expect(
            verdicts(state.receive(Self.campaign, contextID: global, contextName: "global", now: .seconds(900)))
                == ["drop c1"],
            "the window starts again from the latest delivery"
        )
    }

    @Test("The idle check re-arms for the remaining time after activity, and fires at the threshold")
    func idleCheckRearms() {
        var state = makeState()
        #expect(state.start().timers == [.idleCheck(after: .seconds(60))])
        _ = state.userActivity(now: .seconds(40))
        #expect(state.idleCheckFired(now: .seconds(60)).timers == [.idleCheck(after: .seconds(40))])
        #expect(!state.isIdle)
        _ = state.idleCheckFired(now: .seconds(100))
        #expect(state.isIdle)
        let back = state.userActivity(now: .seconds(130))
        #expect(!state.isIdle)
        #expect(back.timers == [.idleCheck(after: .seconds(60))])
    }

    @Test("A stale visibility timer does nothing")
    func staleVisibilityTimer() {
        var state = makeState()
        let (screen, effects) = state.addScreen(named: "Product")
        guard case .visibility(_, let generation) = effects.timers.first else {
            Issue.record("a new screen arms its visibility timer")
            return
        }
        _ = state.setHandler({ _ in }, target: "banner", contextID: screen, now: .zero)
        _ = state.didAppear(screen, now: .seconds(1))
        _ = state.visibilityTimerFired(screen, generation: generation)
        #expect(state.contexts[screen]?.handlers["banner"] != nil)
    }
}
