import ActuateReporting
import Testing

@testable import ActuatePersonalization

@Suite("Campaign contexts: impressions, clickthroughs, dismissals and control groups")
struct CampaignContextImpressionTests {
    @Test("A control-group campaign reaches its handler, and its impression is recorded tagged control")
    func controlGroupImpression() async throws {
        let control = Campaign.test("c1", messageID: "m1", isControlGroup: true)
        let shown = Campaign.test("c1", messageID: "m2")
        let fixture = CampaignFixture(offering: [("Control", control), ("Test", shown)])
        let global = fixture.manager.globalContext
        let deliveries = fixture.deliveries
        global.setCampaignHandler(
            { [weak global] campaign in
                // The documented pattern: the same logic for both groups, showing only outside the control group.
                // The context holds its handlers, so a handler holds the context weakly.
                deliveries.record(campaign.isControlGroup ? "not shown" : "shown", campaign)
                global?.trackImpression(campaign)
            },
            forTarget: "banner"
        )
        global.trackAction("Control")
        global.trackAction("Test")
        await fixture.settle()
        #expect(fixture.deliveries.summary == ["not shown: c1", "shown: c1"])

        let controlImpression = try #require(try fixture.events(CampaignEventType.controlImpression).first)
        #expect(controlImpression.properties[CampaignEventKey.controlGroup] == true)
        #expect(controlImpression.properties[CampaignEventKey.messageID] == "m1")
        #expect(controlImpression.properties[ReportEventKey.actionID] == "c1")
        #expect(controlImpression.properties[ReportEventKey.contentSource] == "campaign")

        let impression = try #require(try fixture.events(.executed).first)
        #expect(impression.properties[CampaignEventKey.controlGroup] == false)
        #expect(impression.properties[CampaignEventKey.messageID] == "m2")
        #expect(impression.properties[CampaignEventKey.target] == "banner")
        #expect(impression.properties[CampaignEventKey.context] == "global")

        let statistics = ReportingStatistics(events: try fixture.events())
        #expect(statistics[.campaign(id: "c1")]?.impressions == 1, "content statistics count only what was shown")
    }

    @Test("Clickthroughs and dismissals of a shown campaign are target and close content events")
    func clickthroughAndDismissal() throws {
        let fixture = CampaignFixture(offering: [])
        let global = fixture.manager.globalContext
        let campaign = Campaign.test("c1", messageID: "m1")
        global.trackImpression(campaign)
        global.trackClickthrough(campaign)
        global.trackDismissal(campaign)
        let events = try fixture.events()
        #expect(events.map(\.type) == ["executed", "target", "close"])
        #expect(events.allSatisfy { $0.properties[ReportEventKey.actionName] == "Campaign c1" })
        #expect(events[2].properties[ReportEventKey.dontShowSessions] == 0)
        let figures = try #require(ReportingStatistics(events: events)[.campaign(id: "c1")])
        #expect(figures.clicks == 1)
        #expect(figures.closes == 1)
    }

    @Test("A control-group campaign was never shown, so a clickthrough or dismissal of it is a tracking error")
    func controlGroupCannotBeClicked() throws {
        let fixture = CampaignFixture(offering: [])
        let global = fixture.manager.globalContext
        let control = Campaign.test("c1", isControlGroup: true)
        global.trackClickthrough(control)
        global.trackDismissal(control)
        let events = try fixture.events()
        #expect(events.map(\.type) == ["tracking_error", "tracking_error"])
        #expect(events.map { $0.properties[CampaignEventKey.call] } == ["trackClickthrough", "trackDismissal"])
        #expect(
            events[0].properties[CampaignEventKey.message]
                == #"campaign "Campaign c1" (c1, control group) for target "banner" is in the control group and was not shown, so it cannot be clicked"#
        )
    }
}
