import Actuate
import ActuateReporting
import ActuateTesting
import Dispatch
import Testing

@testable import ActuatePersonalization

@Suite("Campaign contexts: delivery, holding and lifecycle")
struct CampaignContextTests {
    static let c1 = #"campaign "Campaign c1" (c1) for target "banner""#
    static let c2 = #"campaign "Campaign c2" (c2) for target "banner""#

    @Test("By default handlers run on the main queue and decisions are performed in the main session")
    func defaultConfiguration() {
        let configuration = CampaignConfiguration()
        #expect(configuration.deliveryQueue.label == DispatchQueue.main.label)
        #expect(configuration.actionSession === ActionSession.main)
        #expect(configuration.idleThreshold == .seconds(300))
        #expect(configuration.visibilityTimeout == .seconds(10))
    }

    @Test("A campaign reaches the handler of an active context at once, on the delivery queue")
    func deliveredWhileActive() async {
        let fixture = CampaignFixture(offering: [("Open Home", .test("c1"))])
        let global = fixture.manager.globalContext
        global.setCampaignHandler(fixture.handler("home"), forTarget: "banner")
        #expect(global.isActive)
        global.trackAction("Open Home")
        await fixture.settle()
        #expect(fixture.deliveries.summary == ["home: c1"])
        #expect(fixture.deliveries.all.allSatisfy { $0.onDeliveryQueue })
        #expect(
            fixture.decisions() == [
                "Deliver Campaign: \(Self.c1) in global: the context is active and has a handler for the target"
            ]
        )
        fixture.harness.checkDiagnostics()
    }

    @Test("A campaign for a screen that is not yet visible is held, then delivered when it appears")
    func heldUntilAppear() async {
        let fixture = CampaignFixture(offering: [("Open Product", .test("c1"))])
        let screen = fixture.manager.makeScreen(named: "Product")
        screen.viewWillAppear()
        screen.setCampaignHandler(fixture.handler("product"), forTarget: "banner")
        screen.trackAction("Open Product")
        await fixture.settle()
        #expect(!screen.isActive)
        #expect(screen.inactivityCauses == [.screenNotVisible])
        #expect(fixture.deliveries.all.isEmpty)

        screen.viewDidAppear()
        await fixture.settle()
        #expect(screen.isActive)
        #expect(fixture.deliveries.summary == ["product: c1"])
        #expect(
            fixture.decisions() == [
                "Hold Campaign: \(Self.c1) in Product: the screen is not visible",
                "Deliver Campaign: \(Self.c1) in Product: the context became active (the screen appeared)",
            ]
        )
    }

    @Test("A campaign with no handler for its target is held, and delivered when a handler is set")
    func heldUntilHandler() async {
        let fixture = CampaignFixture(offering: [("Open Product", .test("c1"))])
        let screen = fixture.manager.makeScreen(named: "Product")
        screen.viewWillAppear()
        screen.viewDidAppear()
        screen.trackAction("Open Product")
        await fixture.settle()
        #expect(fixture.deliveries.all.isEmpty)

        screen.setCampaignHandler(fixture.handler("late"), forTarget: "banner")
        await fixture.settle()
        #expect(fixture.deliveries.summary == ["late: c1"])
        #expect(
            fixture.decisions() == [
                "Hold Campaign: \(Self.c1) in Product: no handler for the target",
                "Deliver Campaign: \(Self.c1) in Product: a handler was set for the target",
            ]
        )
    }

    @Test("Removing a handler keeps held campaigns for the next handler")
    func removingHandlerKeepsHeld() async {
        let fixture = CampaignFixture(offering: [("Open Home", .test("c1"))])
        let global = fixture.manager.globalContext
        global.setCampaignHandler(fixture.handler("first"), forTarget: "banner")
        global.setCampaignHandler(nil, forTarget: "banner")
        global.trackAction("Open Home")
        await fixture.settle()
        #expect(fixture.deliveries.all.isEmpty)
        global.setCampaignHandler(fixture.handler("second"), forTarget: "banner")
        await fixture.settle()
        #expect(fixture.deliveries.summary == ["second: c1"])
    }

    @Test("Only the most recent campaign per target is held; the one it replaces is dropped")
    func newerCampaignReplacesHeld() async {
        let fixture = CampaignFixture(offering: [
            ("First", .test("c1")), ("Second", .test("c2")), ("Footer", .test("f1", target: "footer")),
        ])
        let screen = fixture.manager.makeScreen(named: "Product")
        screen.setCampaignHandler(fixture.handler("banner"), forTarget: "banner")
        screen.setCampaignHandler(fixture.handler("footer"), forTarget: "footer")
        screen.viewWillAppear()
        screen.trackAction("First")
        screen.trackAction("Footer")
        screen.trackAction("Second")
        await fixture.settle()
        screen.viewDidAppear()
        await fixture.settle()
        #expect(fixture.deliveries.summary == ["banner: c2", "footer: f1"])
        let footer = #"campaign "Campaign f1" (f1) for target "footer""#
        #expect(
            fixture.decisions() == [
                "Hold Campaign: \(Self.c1) in Product: the screen is not visible",
                "Hold Campaign: \(footer) in Product: the screen is not visible",
                "Drop Campaign: \(Self.c1) in Product: replaced by a newer \(Self.c2)",
                "Hold Campaign: \(Self.c2) in Product: the screen is not visible",
                "Deliver Campaign: \(Self.c2) in Product: the context became active (the screen appeared)",
                "Deliver Campaign: \(footer) in Product: the context became active (the screen appeared)",
            ]
        )
    }

    @Test("A screen that does not become visible in time loses its handlers and held campaigns")
    func visibilityTimeout() async {
        let fixture = CampaignFixture(offering: [("Open Product", .test("c1"))])
        let screen = fixture.manager.makeScreen(named: "Product")
        screen.setCampaignHandler(fixture.handler("product"), forTarget: "banner")
        screen.trackAction("Open Product")
        await fixture.settle()
        fixture.scheduler.advance(by: CampaignFixture.visibilityTimeout - .seconds(1))
        await fixture.settle()
        #expect(fixture.decisions().count == 1, "nothing is cleared before the timeout")

        fixture.scheduler.advance(by: .seconds(1))
        await fixture.settle()
        screen.viewWillAppear()
        screen.viewDidAppear()
        await fixture.settle()
        #expect(fixture.deliveries.all.isEmpty, "the held campaign was dropped and the handler cleared")
        screen.trackAction("Open Product")
        await fixture.settle()
        #expect(fixture.deliveries.all.isEmpty)
        #expect(
            fixture.decisions() == [
                "Hold Campaign: \(Self.c1) in Product: the screen is not visible",
                "Drop Campaign: \(Self.c1) in Product: the screen did not become visible within 5 s",
                "Hold Campaign: \(Self.c1) in Product: no handler for the target",
            ]
        )
    }

    @Test("A screen that becomes visible in time keeps its handlers past the timeout")
    func visibleInTime() async {
        let fixture = CampaignFixture(offering: [("Open Product", .test("c1"))])
        let screen = fixture.manager.makeScreen(named: "Product")
        screen.setCampaignHandler(fixture.handler("product"), forTarget: "banner")
        screen.viewWillAppear()
        fixture.scheduler.advance(by: .seconds(4))
        screen.viewDidAppear()
        fixture.scheduler.advance(by: .seconds(30))
        screen.trackAction("Open Product")
        await fixture.settle()
        #expect(fixture.deliveries.summary == ["product: c1"])
    }

    @Test("Will-disappear clears a screen's handlers and held campaigns")
    func disappearClears() async {
        let fixture = CampaignFixture(offering: [
            ("Open Product", .test("c1")), ("Footer", .test("f1", target: "footer")),
        ])
        let screen = fixture.manager.makeScreen(named: "Product")
        screen.viewWillAppear()
        screen.setCampaignHandler(fixture.handler("product"), forTarget: "banner")
        screen.viewDidAppear()
        screen.trackAction("Footer")
        await fixture.settle()
        screen.viewWillDisappear()
        await fixture.settle()
        #expect(!screen.isActive)

        screen.viewWillAppear()
        screen.viewDidAppear()
        screen.trackAction("Open Product")
        screen.setCampaignHandler(fixture.handler("footer"), forTarget: "footer")
        await fixture.settle()
        #expect(fixture.deliveries.all.isEmpty, "neither the old handler nor the dropped footer campaign survive")
        let footer = #"campaign "Campaign f1" (f1) for target "footer""#
        #expect(
            fixture.decisions() == [
                "Hold Campaign: \(footer) in Product: no handler for the target",
                "Drop Campaign: \(footer) in Product: the screen will disappear",
                "Hold Campaign: \(Self.c1) in Product: no handler for the target",
            ]
        )
    }

    @Test("The global context has no visibility timeout: a held campaign waits for the app to come back")
    func globalContextKeepsHeld() async {
        let fixture = CampaignFixture(offering: [("Open Home", .test("c1"))])
        let global = fixture.manager.globalContext
        global.setCampaignHandler(fixture.handler("home"), forTarget: "banner")
        fixture.manager.setApplicationInForeground(false)
        #expect(global.inactivityCauses == [.appInBackground])
        global.trackAction("Open Home")
        await fixture.settle()
        fixture.scheduler.advance(by: CampaignFixture.visibilityTimeout * 6)
        await fixture.settle()
        #expect(fixture.deliveries.all.isEmpty)

        fixture.manager.setApplicationInForeground(true)
        await fixture.settle()
        #expect(fixture.deliveries.summary == ["home: c1"])
        #expect(
            fixture.decisions() == [
                "Hold Campaign: \(Self.c1) in global: the app is in the background",
                "Deliver Campaign: \(Self.c1) in global: the context became active (the app came to the foreground)",
            ]
        )
    }

    @Test("An idle user makes every context inactive; a campaign is held until the user is active again")
    func idleUser() async {
        let source = GatedCampaignSource()
        let fixture = CampaignFixture(source: source)
        let global = fixture.manager.globalContext
        global.setCampaignHandler(fixture.handler("home"), forTarget: "banner")
        fixture.scheduler.advance(by: .seconds(59))
        fixture.manager.recordUserInteraction()
        fixture.scheduler.advance(by: .seconds(59))
        #expect(!fixture.manager.isUserIdle, "an interaction restarts the idle clock")
        #expect(global.isActive)

        global.trackAction("Open Home")
        await source.waitForRequest()
        fixture.scheduler.advance(by: CampaignFixture.idleThreshold)
        #expect(fixture.manager.isUserIdle)
        #expect(global.inactivityCauses == [.userIdle])
        source.answer([.test("c1")])
        await fixture.settle()
        #expect(fixture.deliveries.all.isEmpty)

        fixture.manager.recordUserInteraction()
        await fixture.settle()
        #expect(!fixture.manager.isUserIdle)
        #expect(fixture.deliveries.summary == ["home: c1"])
        #expect(
            fixture.decisions() == [
                "Hold Campaign: \(Self.c1) in global: the user is idle",
                "Deliver Campaign: \(Self.c1) in global: the context became active (the user is active again)",
            ]
        )
        #expect(
            source.requests == [
                CampaignRequest(
                    trigger: .action("Open Home"),
                    contextName: "global",
                    identity: StoredIdentity(anonymousID: "visitor-1"),
                    properties: [CampaignEventKey.name: "Open Home"]
                )
            ]
        )
    }

    @Test("A campaign identical to the one last delivered to the context and target is dropped")
    func duplicateDropped() async {
        let fixture = CampaignFixture(offering: [("Open Home", .test("c1")), ("Other", .test("c2"))])
        let global = fixture.manager.globalContext
        global.setCampaignHandler(fixture.handler("home"), forTarget: "banner")
        global.trackAction("Open Home")
        global.trackAction("Open Home")
        global.trackAction("Other")
        await fixture.settle()
        #expect(fixture.deliveries.summary == ["home: c1", "home: c2"])
        #expect(
            fixture.decisions() == [
                "Deliver Campaign: \(Self.c1) in global: the context is active and has a handler for the target",
                "Drop Campaign: \(Self.c1) in global: identical to the campaign last delivered to this target",
                "Deliver Campaign: \(Self.c2) in global: the context is active and has a handler for the target",
            ]
        )
    }

    @Test("An identical campaign sent again to the global context after the 30-minute duplicate window arrives again")
    func duplicateWindowEnds() async {
        let fixture = CampaignFixture(offering: [("Open Home", .test("c1"))])
        let global = fixture.manager.globalContext
        global.setCampaignHandler(fixture.handler("home"), forTarget: "banner")
        global.trackAction("Open Home")
        global.trackAction("Open Home")
        await fixture.settle()
        #expect(fixture.deliveries.summary == ["home: c1"])
        fixture.harness.scheduler.advance(by: .seconds(30 * 60))
        global.trackAction("Open Home")
        await fixture.settle()
        #expect(fixture.deliveries.summary == ["home: c1", "home: c1"], "once per window, not never again")
    }

    @Test("A campaign identical to the held one is dropped, not held twice")
    func duplicateOfHeldDropped() async {
        let fixture = CampaignFixture(offering: [("Open Home", .test("c1"))])
        let global = fixture.manager.globalContext
        global.trackAction("Open Home")
        global.trackAction("Open Home")
        await fixture.settle()
        #expect(
            fixture.decisions().last
                == "Drop Campaign: \(Self.c1) in global: identical to the campaign already held for this target"
        )
    }

    @Test("A campaign that differs only in its data is not a duplicate")
    func differentDataIsNew() async {
        let fixture = CampaignFixture(offering: [
            ("A", .test("c1", data: ["headline": "Hello"])), ("B", .test("c1", data: ["headline": "Welcome back"])),
        ])
        let global = fixture.manager.globalContext
        global.setCampaignHandler(fixture.handler("home"), forTarget: "banner")
        global.trackAction("A")
        global.trackAction("B")
        await fixture.settle()
        #expect(fixture.deliveries.all.map(\.campaign.data["headline"]) == ["Hello", "Welcome back"])
    }

    @Test("A screen that reappears gets a campaign it was shown before, since its handlers are new")
    func reappearForgetsDeliveries() async {
        let fixture = CampaignFixture(offering: [("Open Product", .test("c1"))])
        let screen = fixture.manager.makeScreen(named: "Product")
        for visit in 1...2 {
            screen.viewWillAppear()
            screen.setCampaignHandler(fixture.handler("visit \(visit)"), forTarget: "banner")
            screen.viewDidAppear()
            screen.trackAction("Open Product")
            await fixture.settle()
            screen.viewWillDisappear()
        }
        #expect(fixture.deliveries.summary == ["visit 1: c1", "visit 2: c1"])
    }

    @Test("Releasing a screen drops what it held")
    func releasedScreenDropsHeld() async {
        let fixture = CampaignFixture(offering: [("Open Product", .test("c1"))])
        var screen: CampaignScreen? = fixture.manager.makeScreen(named: "Product")
        screen?.trackAction("Open Product")
        await fixture.settle()
        screen = nil
        await fixture.settle()
        #expect(
            fixture.decisions() == [
                "Hold Campaign: \(Self.c1) in Product: the screen is not visible",
                "Drop Campaign: \(Self.c1) in Product: the screen context was released",
            ]
        )
    }

    @Test("With the reporting plugin installed, decisions are recorded as events with their reasons")
    func decisionsReachReporter() async throws {
        let fixture = CampaignFixture(offering: [("Open Home", .test("c1"))], reportDecisions: true)
        let global = fixture.manager.globalContext
        global.trackAction("Open Home")
        await fixture.settle()
        global.setCampaignHandler(fixture.handler("home"), forTarget: "banner")
        await fixture.settle()
        let decisions = try fixture.events().filter { $0.type.hasPrefix("campaign_") }
        #expect(decisions.map(\.type) == ["campaign_held", "campaign_delivered"])
        #expect(
            decisions.map { $0.properties["reason"] } == [
                "no handler for the target", "a handler was set for the target",
            ]
        )
        #expect(decisions.allSatisfy { $0.properties[ReportEventKey.actionID] == "c1" })
    }
}
