import ActuateReporting
import Foundation
import Testing

@testable import ActuatePersonalization

@Suite("Notification clickthroughs")
struct CampaignNotificationTests {
    @Test("A clickthrough on a foreground notification is recorded with its campaign, message and action")
    func clickthroughRecorded() throws {
        let fixture = CampaignFixture(offering: [])
        let payload: [String: JSONValue] = [
            "aps": ["alert": "Back in stock"],
            "campaignId": "restock",
            "messageId": "m-7",
            "campaignName": "Restock alert",
            "experienceId": "e-2",
            "target": "product-banner",
        ]
        try fixture.manager.globalContext.trackClickthrough(notification: payload, actionIdentifier: "open")
        let event = try #require(try fixture.events().first)
        #expect(event.type == "target")
        #expect(
            event.properties == [
                ReportEventKey.contentSource: "campaign", ReportEventKey.actionID: "restock",
                ReportEventKey.actionName: "Restock alert", CampaignEventKey.messageID: "m-7",
                CampaignEventKey.experienceID: "e-2", CampaignEventKey.target: "product-banner",
                CampaignEventKey.controlGroup: false, CampaignEventKey.actionIdentifier: "open",
                CampaignEventKey.via: "notification", CampaignEventKey.context: "global",
            ]
        )
    }

    @Test("Whole-number ids are accepted, and the action identifier is optional")
    func numericIDs() throws {
        let fixture = CampaignFixture(offering: [])
        try fixture.manager.globalContext.trackClickthrough(
            notification: ["campaignId": 42, "messageId": 7],
            actionIdentifier: nil
        )
        let event = try #require(try fixture.events().first)
        #expect(event.properties[ReportEventKey.actionID] == "42")
        #expect(event.properties[CampaignEventKey.messageID] == "7")
        #expect(event.properties[CampaignEventKey.actionIdentifier] == nil)
    }

    static let badPayloads: [(payload: [String: JSONValue], error: CampaignNotificationError)] = [
        (["aps": ["alert": "Hello"]], .missing(key: "campaignId")),
        (["campaignId": "c1"], .missing(key: "messageId")),
        (["campaignId": "  ", "messageId": "m1"], .invalid(key: "campaignId", found: "  ")),
        (["campaignId": true, "messageId": "m1"], .invalid(key: "campaignId", found: true)),
        (["campaignId": 1.5, "messageId": "m1"], .invalid(key: "campaignId", found: 1.5)),
        (["campaignId": "c1", "messageId": ["m1"]], .invalid(key: "messageId", found: ["m1"])),
        (["campaignId": "c1", "messageId": nil], .invalid(key: "messageId", found: nil)),
    ]

    @Test("A payload without campaign or message ids is a clear error, and nothing is recorded", arguments: badPayloads)
    func badPayload(_ payload: [String: JSONValue], _ expected: CampaignNotificationError) throws {
        let fixture = CampaignFixture(offering: [])
        #expect(throws: expected) {
            try fixture.manager.globalContext.trackClickthrough(notification: payload, actionIdentifier: "open")
        }
        #expect(try fixture.events().isEmpty)
    }

    @Test("The errors say what is missing and that nothing was tracked")
    func errorDescriptions() {
        #expect(
            CampaignNotificationError.missing(key: "campaignId").description
                == #"The notification payload has no "campaignId"; it did not come from a campaign, so no clickthrough was tracked."#
        )
        #expect(
            CampaignNotificationError.invalid(key: "messageId", found: true).description
                == #"The notification payload's "messageId" is a Boolean; expected a non-empty string, so no clickthrough was tracked."#
        )
    }

    @Test("User info as Apple platforms deliver it converts to a JSON payload")
    func userInfoConversion() throws {
        let userInfo: [AnyHashable: Any] = [
            "campaignId": "c1",
            "messageId": NSNumber(value: 7),
            "silent": true,
            "badge": 3,
            "ratio": 0.5,
            "aps": ["alert": ["title": "Hi"], "tags": ["a", "b"]] as [String: Any],
            "sent": Date(),
            1: "not a string key",
            "nothing": NSNull(),
        ]
        let payload = CampaignNotification.payload(fromUserInfo: userInfo)
        #expect(
            payload == [
                "campaignId": "c1", "messageId": 7, "silent": true, "badge": 3, "ratio": 0.5,
                "aps": ["alert": ["title": "Hi"], "tags": ["a", "b"]], "nothing": nil,
            ]
        )
        let notification = try CampaignNotification(payload: payload)
        #expect(notification.campaignID == "c1")
        #expect(notification.messageID == "7")
    }
}
