import Actuate
import ActuatePersonalization
import ActuateReporting
import Foundation
import Synchronization

/// The campaigns part's control groups per user: a campaign with `controlGroupPercent` holds back that share of
/// visitors, each visitor in the same group on every launch, by a hash of their anonymous id and the campaign id.
/// Every visitor's impression is tracked (a control impression for those held back), so lift compares the groups.
enum DemoCampaignControlGroups {
    /// The campaign's rules: a size guide tip for a quarter of visitors' control group.
    static let rules = #"""
        {
          "campaigns": [
            {
              "campaignId": "size-guide", "campaignName": "Size guide", "messageId": "tip-1",
              "target": "size-tip", "data": { "headline": "Runs small: take one size up" },
              "controlGroupPercent": 25,
              "trigger": { "action": "Open Size Guide" }
            }
          ]
        }
        """#

    /// The campaign's id and control-group percentage, as the rules give them.
    static let campaignID = "size-guide"
    static let percent = 25

    /// The demo's visitors: one anonymous id each, as eight installations of the app would have.
    static let visitors = ["ada", "grace", "alan", "edsger", "barbara", "donald", "margaret", "ken"].map {
        "visitor-\($0)"
    }

    /// The visitors launched a second time, to show that each lands in the same group again.
    static let relaunched = ["visitor-alan", "visitor-ada"]

    static func run(reporting: DemoReporting) async throws {
        print("\n   Control groups per user: \"Size guide\" holds back \(percent)% of visitors (controlGroupPercent)")
        var held: [String] = []
        for visitor in visitors {
            if try await launch(visitor: visitor, reporting: reporting) { held.append(visitor) }
        }
        print(
            "   \(held.count) of \(visitors.count) visitors are in the control group: \(held.joined(separator: ", "))."
        )
        print("   A relaunch of the app (a new manager, the rules read again, the same anonymous id):")
        for visitor in relaunched {
            _ = try await launch(visitor: visitor, reporting: reporting)
        }
        let events = try reporting.store.fetch(count: try reporting.store.count(), maxBytes: .max)
        let lift = CampaignStatistics.lift(campaignID: campaignID, goal: .purchase, events: events)
        print(
            "   Lift counts each visitor once, in the group of their first impression: "
                + "\(lift.testVisitors) test, \(lift.controlVisitors) control visitors."
        )
    }

    /// One launch of the app for `visitor`: the size guide is opened, and the tip is shown or held back.
    /// - Returns: Whether the visitor was in the control group.
    private static func launch(visitor: String, reporting: DemoReporting) async throws -> Bool {
        let reporter = Reporter(
            store: reporting.store,
            delivery: nil,
            scheduler: SystemScheduler.shared,
            identity: Identity(storage: MemoryIdentityStorage(StoredIdentity(anonymousID: visitor)))
        )
        let campaigns = CampaignManager(
            reporter: reporter,
            source: try LocalCampaignSource(data: Data(rules.utf8), name: "embedded control-group campaign"),
            // The relaunch follows at once; with no duplicate window it shows the tip again, as a relaunch after
            // the 30-minute window would (the folder keeps the window across launches).
            configuration: CampaignConfiguration(duplicateWindow: .zero),
            directory: reporting.directory.appendingPathComponent("campaigns-\(visitor)")
        )
        let global = campaigns.globalContext
        let received = ReceivedCampaign()
        global.setCampaignHandler(
            { [weak global] campaign in
                received.campaign = campaign
                // Both groups run the same logic and track the impression; only the test group sees the tip.
                global?.trackImpression(campaign)
            },
            forTarget: "size-tip"
        )
        global.trackAction("Open Size Guide")
        await campaigns.waitUntilSettled()
        let isControl = received.campaign?.isControlGroup ?? false
        let shown = "sees \"\(received.campaign?.data["headline"]?.stringValue ?? "")\""
        let padded = visitor.padding(toLength: 17, withPad: " ", startingAt: 0)
        print("   \(isControl ? "🧪" : "📣") \(padded) \(isControl ? "control group: not shown" : shown)")
        return isControl
    }

    /// What the handler received, read once the manager has settled.
    private final class ReceivedCampaign: Sendable {
        private let value = Mutex<Campaign?>(nil)

        var campaign: Campaign? {
            get { value.withLock { $0 } }
            set { value.withLock { $0 = newValue } }
        }
    }
}
