import Actuate
import ActuatePersonalization
import ActuateReporting
import Foundation

/// The campaigns part of the demo: a product screen registers campaign handlers as it will appear, a campaign
/// earned before it is visible is held and delivered on appear, another is delivered while it is visible, and a
/// control-group campaign is not shown but its impression is tracked.
enum DemoCampaigns {
    /// The embedded rules: three campaigns for the product screen.
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
              "trigger": { "action": "Add to Cart", "context": "Product" }
            },
            {
              "campaignId": "members-reviews", "campaignName": "Members' reviews", "messageId": "footer-1",
              "target": "product-footer", "data": { "headline": "See what members say" }, "isControlGroup": true,
              "trigger": { "action": "Open Reviews", "context": "Product" }
            }
          ]
        }
        """#

    static func run(reporting: DemoReporting) async throws {
        print("\nCampaigns: a product screen's handlers, a held campaign, and a control group")
        let campaigns = CampaignManager(
            reporter: reporting.reporter,
            source: try LocalCampaignSource(data: Data(rules.utf8), name: "embedded demo campaigns")
        )
        let shoes = try ActuatePersonalization.Product(id: "p1", name: "Trail shoes", price: 89, currency: "EUR")
        let screen = campaigns.makeScreen(named: "Product")

        // viewWillAppear: register the handlers and say what the screen shows.
        screen.viewWillAppear()
        screen.setCampaignHandler(
            { [weak screen] campaign in
                print("   📣 Banner shows \"\(campaign.data["headline"]?.stringValue ?? "")\" (\(campaign.campaignId))")
                screen?.trackImpression(campaign)
            },
            forTarget: "product-banner"
        )
        screen.setCampaignHandler(
            { [weak screen] campaign in
                // The same eligibility logic runs for everyone; the control group just does not see the result.
                if campaign.isControlGroup {
                    print("   🧪 \(campaign.campaignId) reached the footer handler in the control group: not shown")
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

        print("   The user adds the shoes to the cart while the screen is visible:")
        screen.addToCart(try LineItem(product: shoes))
        screen.trackAction("Add to Cart")
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
        try await DemoCampaignControlGroups.run(reporting: reporting)
        print("   The timeline below shows each campaign held, delivered or dropped, and why.")
    }
}
