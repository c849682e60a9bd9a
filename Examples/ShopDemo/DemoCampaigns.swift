import Actuate
import ActuatePersonalization
import ActuateReporting
import Foundation

/// The campaigns part of the demo: a product screen registers campaign handlers as it will appear, a campaign
/// earned before it is visible is held and delivered on appear, another is earned by adding to the cart while it
/// is visible, and a control-group campaign is not shown but its impression is tracked. The campaigns come from
/// the embedded rules, or from a campaign server given with `--campaign-server`.
enum DemoCampaigns {
    /// The embedded rules: three campaigns for the product screen. `Tests/Support/campaign_server.py` serves the
    /// same three as a server would, in an experience of its own, with the control group assigned per user.
    static let rules = #"""
        {
          "campaigns": [
            {
              "campaignId": "free-shipping", "campaignName": "Free shipping", "messageId": "banner-1",
              "target": "product-banner", "data": { "headline": "Free shipping on shoes this week" },
              "trigger": { "itemView": { "type": "Product" }, "context": "Product" }
            },
            {
              "campaignId": "complete-the-look", "campaignName": "Complete the look", "messageId": "banner-2",
              "target": "product-banner", "promotedItemKeys": ["Product:p2"],
              "data": { "headline": "Add a rain jacket for 15% off" },
              "trigger": { "addToCart": {}, "context": "Product" }
            },
            {
              "campaignId": "members-reviews", "campaignName": "Members' reviews", "messageId": "footer-1",
              "target": "product-footer", "data": { "headline": "See what members say" }, "isControlGroup": true,
              "trigger": { "action": "Open Reviews", "context": "Product" }
            }
          ]
        }
        """#

    /// Runs the campaigns part.
    /// - Parameters:
    ///   - reporting: The demo's reporting pipeline.
    ///   - campaignServer: The campaign server to ask, or nil for the embedded rules.
    static func run(reporting: DemoReporting, campaignServer: URL?) async throws {
        print("\nCampaigns: a product screen's handlers, a held campaign, and a control group")
        let source: any CampaignSource
        if let campaignServer {
            var limits = HTTPSourceLimits.campaigns
            limits.timeout = .seconds(5)
            limits.deadline = .seconds(10)
            source = try HTTPCampaignSource(endpoint: campaignServer, limits: limits)
            print("   The campaigns come from the campaign server at \(campaignServer.absoluteString).")
        } else {
            source = try LocalCampaignSource(data: Data(rules.utf8), name: "embedded demo campaigns")
            print("   The campaigns come from the embedded rules file (--campaign-server URL asks a server).")
        }
        let campaigns = CampaignManager(
            reporter: reporting.reporter,
            source: source,
            directory: reporting.directory.appendingPathComponent("campaigns")
        )
        let shoes = try ActuatePersonalization.Product(id: "p1", name: "Trail shoes", price: 89, currency: "EUR")
        let screen = campaigns.makeScreen(named: "Product")

        // viewWillAppear: register the handlers and say what the screen shows.
        screen.viewWillAppear()
        screen.setCampaignHandler(
            { [weak screen] campaign in
                print("   📣 Banner shows \"\(campaign.data["headline"]?.stringValue ?? "")\" (\(campaign.campaignID))")
                screen?.trackImpression(campaign)
            },
            forTarget: "product-banner"
        )
        screen.setCampaignHandler(
            { [weak screen] campaign in
                // The same eligibility logic runs for everyone; the control group just does not see the result.
                if campaign.isControlGroup {
                    print("   🧪 \(campaign.campaignID) reached the footer handler in the control group: not shown")
                } else {
                    print("   📣 Footer shows \"\(campaign.data["headline"]?.stringValue ?? "")\"")
                }
                screen?.trackImpression(campaign)
            },
            forTarget: "product-footer"
        )
        screen.viewItem(shoes)
        await campaigns.waitUntilSettled()
        print("   The product view earned \"Free shipping\", but the screen is not visible yet: it is held.")

        print("   viewDidAppear:")
        screen.viewDidAppear()
        await campaigns.waitUntilSettled()

        print("   The user adds the shoes to the cart while the screen is visible (a cart change asks for campaigns):")
        screen.addToCart(try LineItem(product: shoes))
        await campaigns.waitUntilSettled()

        print("   The user opens the reviews:")
        screen.trackAction("Open Reviews")
        await campaigns.waitUntilSettled()
        screen.viewWillDisappear()

        let events = try reporting.store.fetch(count: try reporting.store.count(), maxBytes: .max)
        let campaignEvents = events.filter { $0.properties[ReportEventKey.contentSource] == "campaign" }
        let shown = campaignEvents.filter { $0.type == ReportEventType.executed.rawValue }.count
        let control = campaignEvents.filter { $0.type == CampaignEventType.controlImpression.rawValue }.count
        print("   Recorded: \(shown) campaign impressions, \(control) control-group impression.")
        let failed = events.filter { $0.type == CampaignEventType.campaignSourceError.rawValue }
        for event in failed {
            print("   ⚠️ \(event.properties[CampaignEventKey.message]?.stringValue ?? "the campaign source failed")")
        }
        if campaignServer != nil {
            let experiences = Set(
                campaignEvents.compactMap { $0.properties[CampaignEventKey.experienceID]?.stringValue }
            )
            print(
                "   Every campaign shown is the server's, in its experience \(experiences.sorted().joined(separator: ", "))."
            )
        }
        try await DemoCampaignControlGroups.run(reporting: reporting)
        print("   The timeline below shows each campaign held, delivered or dropped, and why.")
    }
}
