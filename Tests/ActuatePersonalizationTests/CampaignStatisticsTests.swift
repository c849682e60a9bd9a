import ActuateReporting
import Foundation
import Testing

@testable import ActuatePersonalization

@Suite("Campaign statistics: lift against control")
struct CampaignStatisticsTests {
    /// One visitor's visit: the campaign reaches their handler (shown, or not shown in the control group), the
    /// handler tracks the impression, and the visitor buys or not.
    static func visit(_ visitor: String, control: Bool, buys: Bool, store: MemoryEventStore) async throws {
        let campaign = Campaign.test("summer", isControlGroup: control)
        let fixture = CampaignFixture(offering: [("Open Home", campaign)], store: store, visitor: visitor)
        let global = fixture.manager.globalContext
        global.setCampaignHandler({ [weak global] in global?.trackImpression($0) }, forTarget: "banner")
        global.trackAction("Open Home")
        await fixture.settle()
        fixture.scheduler.advance(by: .seconds(30))
        if buys {
            global.purchase(try Order(lineItems: [try LineItem(product: Product(id: "sku-1", price: 10))]))
        }
    }

    @Test("Lift is (test − control) / control over visitors who reached the goal after their first impression")
    func liftAgainstControl() async throws {
        let store = MemoryEventStore()
        for index in 0..<10 {
            try await Self.visit("test-\(index)", control: false, buys: index < 3, store: store)
            try await Self.visit("control-\(index)", control: true, buys: index < 2, store: store)
        }
        let lift = try CampaignStatistics.lift(campaignID: "summer", goal: .purchase, store: store)
        #expect(lift.testVisitors == 10)
        #expect(lift.testConversions == 3)
        #expect(lift.controlVisitors == 10)
        #expect(lift.controlConversions == 2)
        #expect(lift.testRate == 0.3)
        #expect(lift.controlRate == 0.2)
        #expect(abs((lift.lift ?? 0) - 0.5) < 1e-12)
        #expect(
            lift.description
                == "summer, purchase: test 3/10 (30.0%, 95% CI 10.8%–60.3%), control 2/10 (20.0%, 95% CI 5.7%–51.0%), "
                + "lift +50.0% (95% CI −68.5% to +613.7%): not distinguishable yet; "
                + "294 visitors per group would detect it (284 more)"
        )
    }

    @Test("A goal reached before the first impression does not count, and a visitor counts once")
    func conversionsAfterImpressionOnly() {
        let start = Date(timeIntervalSince1970: 1_000)
        let events = [
            Self.event("purchase", visitor: "a", at: start),
            Self.impression(visitor: "a", control: false, at: start.addingTimeInterval(10)),
            Self.impression(visitor: "a", control: false, at: start.addingTimeInterval(20)),
            Self.event("user_action", visitor: "b", at: start.addingTimeInterval(40), properties: ["name": "Sign Up"]),
            Self.impression(visitor: "b", control: false, at: start.addingTimeInterval(30)),
            Self.event("user_action", visitor: "b", at: start.addingTimeInterval(50), properties: ["name": "Sign Up"]),
            Self.impression(visitor: "c", control: true, at: start),
            Self.event("user_action", visitor: "c", at: start.addingTimeInterval(5), properties: ["name": "Sign Up"]),
        ]
        let purchase = CampaignStatistics.lift(campaignID: "summer", goal: .purchase, events: events)
        #expect(purchase.testVisitors == 2)
        #expect(purchase.testConversions == 0, "a bought before the impression")
        let signUp = CampaignStatistics.lift(campaignID: "summer", goal: .action("Sign Up"), events: events)
        #expect(signUp.testConversions == 1)
        #expect(signUp.controlConversions == 1)
        #expect(signUp.testRate == 0.5)
        #expect(signUp.lift == -0.5)
    }

    @Test("Lift is unknown, never a division by zero, without control visitors or control conversions")
    func unknownLift() {
        let start = Date(timeIntervalSince1970: 1_000)
        let onlyTest = [Self.impression(visitor: "a", control: false, at: start)]
        #expect(CampaignStatistics.lift(campaignID: "summer", goal: .purchase, events: onlyTest).lift == nil)
        let noControlConversion =
            onlyTest + [
                Self.impression(visitor: "b", control: true, at: start),
                Self.event("purchase", visitor: "a", at: start),
            ]
        let lift = CampaignStatistics.lift(campaignID: "summer", goal: .purchase, events: noControlConversion)
        #expect(lift.testRate == 1)
        #expect(lift.controlRate == 0)
        #expect(lift.lift == nil)
        #expect(
            lift.description
                == "summer, purchase: test 1/1 (100.0%, 95% CI 20.7%–100.0%), control 0/1 (0.0%, 95% CI 0.0%–79.3%), "
                + "lift n/a (95% CI −76.1% to +3667.2%): not distinguishable yet; "
                + "2 visitors per group would detect it (1 more)"
        )
        let unknown = CampaignStatistics.lift(campaignID: "other", goal: .purchase, events: noControlConversion)
        #expect(unknown.testVisitors == 0)
        #expect(unknown.testRate == nil)
    }

    @Test("Every campaign with an impression gets its own figures; other content is ignored")
    func liftsPerCampaign() {
        let start = Date(timeIntervalSince1970: 1_000)
        var contentAction = Self.impression(visitor: "a", control: false, at: start)
        contentAction.properties[ReportEventKey.contentSource] = "action"
        let events = [
            Self.impression(visitor: "a", control: false, at: start, campaignID: "b-campaign"),
            Self.impression(visitor: "a", control: true, at: start, campaignID: "a-campaign"),
            contentAction,
        ]
        let lifts = CampaignStatistics.lifts(goal: .eventType(CampaignEventType.share), events: events)
        #expect(lifts.map(\.campaignID) == ["a-campaign", "b-campaign"])
        #expect(lifts.map(\.controlVisitors) == [1, 0])
    }

    static func impression(visitor: String, control: Bool, at date: Date, campaignID: String = "summer") -> ReportEvent
    {
        event(
            control ? "control_impression" : "executed",
            visitor: visitor,
            at: date,
            properties: Campaign.test(campaignID, isControlGroup: control).eventProperties
        )
    }

    static func event(
        _ type: String,
        visitor: String,
        at date: Date,
        properties: [String: JSONValue] = [:]
    ) -> ReportEvent {
        ReportEvent(
            type: type,
            timestamp: date,
            sessionID: "s-\(visitor)",
            anonymousID: visitor,
            properties: properties
        )
    }
}
