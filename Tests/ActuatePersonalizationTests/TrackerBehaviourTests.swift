import ActuateReporting
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins

@Suite("Tracker: behaviour")
struct TrackerBehaviourTests {
    @Test("every behaviour command becomes a report event and updates the profile")
    func behaviourEvents() async throws {
        let fixture = TrackerFixture()
        let tracker = fixture.tracker
        try tracker.navigate(documentName: "home")
        try tracker.productViewed(productID: "p1")
        try tracker.productAddedToCart(productID: "p1")
        try tracker.productLiked(productID: "p1")
        try tracker.productUnliked(productID: "p1")
        try tracker.productAddedToCart(productID: "p2")
        try tracker.productRemovedFromCart(productID: "p2")
        try tracker.productPurchased(productID: "p1")
        try tracker.articleViewed(articleID: "a1")
        try tracker.articleLiked(articleID: "a1")
        try tracker.articleCommented(articleID: "a1")
        try tracker.articleUnliked(articleID: "a1")
        try tracker.articleGoal(articleID: "a1")
        try tracker.logUserData(field: "tier", value: "gold")
        let events = try await fixture.events()
        #expect(
            events.map { $0.properties["command"]?.stringValue ?? "" } == [
                "navigate", "product_viewed", "product_added_to_cart", "product_liked", "product_unliked",
                "product_added_to_cart", "product_removed_from_cart", "product_purchased", "article_viewed",
                "article_liked", "article_commented", "article_unliked", "article_goal", "user_data",
            ]
        )
        #expect(
            events.map(\.type) == Array(repeating: "behaviour", count: 7) + ["purchase"]
                + Array(repeating: "behaviour", count: 6)
        )
        #expect(events[0].properties["document"] == "home")
        #expect(events[1].properties["productId"] == "p1")
        #expect(events[7].purchasedProductIDs == ["p1"])
        #expect(events[8].properties["articleId"] == "a1")
        let profile = tracker.profile
        #expect(profile.currentDocument == "home")
        #expect(profile.viewedProducts == ["p1"])
        #expect(profile.cartProducts.isEmpty, "p1 was bought and p2 removed")
        #expect(profile.likedProducts.isEmpty)
        #expect(profile.purchasedProducts == ["p1"])
        #expect(profile.likedArticles.isEmpty)
        #expect(profile.commentedArticles == ["a1"])
        #expect(profile.goalArticles == ["a1"])
        #expect(profile.userData == ["tier": "gold"])
        #expect(profile.commandCount == 14)
    }

    @Test("user data values never reach an event, the timeline or a log")
    func userDataRedacted() async throws {
        let fixture = TrackerFixture()
        try fixture.tracker.logUserData(field: "email", value: "secret@example.com")
        let event = try #require(try await fixture.events().first)
        #expect(event.properties["field"] == "email")
        #expect(!event.properties.values.contains(.string("secret@example.com")))
        let entry = try #require(fixture.harness.timeline.snapshot().first)
        #expect(entry.actionName == "Track Behaviour")
        #expect(entry.inputDescription == "user data email = <redacted>")
        #expect(!fixture.harness.timeline.textDump().contains("secret@example.com"))
    }

    @Test("a purchase after a product click in content counts as its contribution")
    func purchaseContribution() async throws {
        let fixture = TrackerFixture()
        ContentAction.banner(tracker: fixture.tracker).reportProductClick(productID: "sku-1")
        try fixture.tracker.productPurchased(productID: "sku-1")
        await fixture.tracker.waitForReports()
        let statistics = ReportingStatistics(events: try fixture.store.fetch(count: 100, maxBytes: .max))
        #expect(statistics[.contentAction(id: 7)]?.attributedPurchases == 1)
    }

    enum BadCall: String, CaseIterable, Sendable {
        case emptyDocument
        case blankProduct
        case newlineArticle
        case emptyField
        case oversizedProduct
        case emptyCommandArticle

        func perform(on tracker: Tracker) throws(TrackerError) {
            switch self {
            case .emptyDocument: try tracker.navigate(documentName: "")
            case .blankProduct: try tracker.productViewed(productID: "  ")
            case .newlineArticle: try tracker.articleGoal(articleID: "\n")
            case .emptyField: try tracker.logUserData(field: "", value: "x")
            case .oversizedProduct: try tracker.productLiked(productID: String(repeating: "x", count: 1_025))
            case .emptyCommandArticle: try tracker.track(.article(.viewed, articleID: ""))
            }
        }
    }

    @Test("empty or oversized ids and names are refused, and nothing is recorded", arguments: BadCall.allCases)
    func invalidArguments(call: BadCall) async throws {
        let fixture = TrackerFixture()
        #expect(throws: TrackerError.self) { try call.perform(on: fixture.tracker) }
        #expect(try await fixture.eventTypes() == [])
        #expect(fixture.tracker.profile.commandCount == 0)
    }

    @Test("the error names the argument and the reason")
    func errorText() {
        let fixture = TrackerFixture()
        #expect(throws: TrackerError.invalidArgument(name: "product id", reason: "it is empty")) {
            try fixture.tracker.productViewed(productID: "")
        }
        #expect(
            TrackerError.invalidArgument(name: "product id", reason: "it is empty").description
                == "Invalid product id: it is empty."
        )
    }
}
