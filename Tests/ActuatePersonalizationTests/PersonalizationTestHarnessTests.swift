import ActuatePersonalization
import ActuatePersonalizationTesting
import Foundation
import Testing

/// Issue 47, point 10: a campaign or content-block test on ``PersonalizationTestHarness`` is five lines, with a
/// relaunch that keeps the folders.
@Suite("PersonalizationTestHarness")
struct PersonalizationTestHarnessTests {
    static let rules = #"""
        { "campaigns": [{ "campaignId": "whats-new", "campaignName": "What's new", "target": "home-banner",
                          "trigger": { "action": "Open Home" } }],
          "contentBlocks": [{ "id": "tip", "name": "Tip", "placeholders": ["editor"], "frequency": "onlyOnce",
                              "html": "<p>Swipe to pin</p>" }] }
        """#

    @Test("a campaign is delivered, and a relaunch within the duplicate window drops it")
    func campaignAcrossRelaunch() async throws {
        let app = try PersonalizationTestHarness(rules: Self.rules)
        await app.openHome()
        try app.relaunch()
        await app.openHome()
        #expect(try app.eventTypes() == ["user_action", "campaign_delivered", "user_action", "campaign_dropped"])
    }

    @Test("an onlyOnce block is shown once, across a relaunch")
    func blockAcrossRelaunch() async throws {
        let app = try PersonalizationTestHarness(rules: Self.rules)
        #expect(await app.showsTip())
        try app.relaunch()
        #expect(await app.showsTip() == false)
    }

    @Test("a repeated order id after a relaunch is ignored, and the relaunch ends the open session")
    func orderAcrossRelaunch() async throws {
        let app = try PersonalizationTestHarness(rules: Self.rules)
        try await app.buy(orderID: "o-1")
        try app.relaunch()
        try await app.buy(orderID: "o-1")
        #expect(try app.eventTypes() == ["purchase", "purchase_ignored"])
        #expect(try app.events("session_end").count == 1)
    }
}

extension PersonalizationTestHarness {
    /// The home screen: a banner handler on the global context, then the tracked action.
    func openHome() async {
        campaigns.globalContext.setCampaignHandler({ _ in }, forTarget: "home-banner")
        campaigns.globalContext.trackAction("Open Home")
        await settle()
    }

    /// Whether the editor's placeholder shows a block once loaded.
    func showsTip() async -> Bool {
        let surface = SimulatedHTMLSurface()
        let placeholder = ContentBlockPlaceholder(placeholderID: "editor", manager: contentBlocks, surface: surface)
        await settle()
        return placeholder.contentBlock != nil
    }

    /// Buys the Pro upgrade under `orderID`.
    func buy(orderID: String) async throws {
        let pro = try Product(id: "pro", name: "Notes Pro", price: 5, currency: "EUR")
        campaigns.globalContext.purchase(try Order(orderID: orderID, lineItems: [try LineItem(product: pro)]))
        await settle()
    }
}
