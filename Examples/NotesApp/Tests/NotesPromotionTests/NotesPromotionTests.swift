import ActuatePersonalization
import ActuatePersonalizationTesting
import Testing

/// The notes app's promotions, as its rules file declares them: a "What's new" banner earned by opening the notes,
/// and a tip shown once in the editor.
let promotions = #"""
    { "campaigns": [{ "campaignId": "whats-new", "campaignName": "What's new", "target": "home-banner",
                      "trigger": { "action": "Open Notes" } }],
      "contentBlocks": [{ "id": "pin-tip", "name": "Pin tip", "placeholders": ["editor"], "frequency": "onlyOnce",
                          "html": "<p>Swipe a note to pin it</p>" }] }
    """#

// Each test is five lines at most, on a harness of its own: one virtual clock, its own folders, relaunches.
@Suite("Notes promotions")
struct NotesPromotionTests {
    @Test func whatsNewOncePerWindowAcrossRelaunch() async throws {
        let app = try PersonalizationTestHarness(rules: promotions)
        await app.openNotes()
        try app.relaunch()
        await app.openNotes()
        #expect(try app.eventTypes() == ["user_action", "campaign_delivered", "user_action", "campaign_dropped"])
    }

    @Test func pinTipShownOnceForGood() async throws {
        let app = try PersonalizationTestHarness(rules: promotions)
        #expect(await app.editorShowsTip())
        try app.relaunch()
        #expect(await app.editorShowsTip() == false)
    }

    @Test func proUpgradeCountedOnceAcrossRelaunch() async throws {
        let app = try PersonalizationTestHarness(rules: promotions)
        try await app.buyPro(orderID: "o-1")
        try app.relaunch()
        try await app.buyPro(orderID: "o-1")
        #expect(try app.eventTypes() == ["purchase", "purchase_ignored"])
    }
}

extension PersonalizationTestHarness {
    /// The notes list: its banner handler on the global context, then the tracked action.
    func openNotes() async {
        campaigns.globalContext.setCampaignHandler({ _ in }, forTarget: "home-banner")
        campaigns.globalContext.trackAction("Open Notes")
        await settle()
    }

    /// Whether the editor's placeholder shows a block once loaded.
    func editorShowsTip() async -> Bool {
        let surface = SimulatedHTMLSurface()
        let placeholder = ContentBlockPlaceholder(placeholderID: "editor", manager: contentBlocks, surface: surface)
        await settle()
        return placeholder.contentBlock != nil
    }

    /// Buys the Pro upgrade under `orderID`.
    func buyPro(orderID: String) async throws {
        let pro = try Product(id: "pro", name: "Notes Pro", price: 5, currency: "EUR")
        campaigns.globalContext.purchase(try Order(orderID: orderID, lineItems: [try LineItem(product: pro)]))
        await settle()
    }
}
