import ActuateReporting
import Foundation
import Synchronization
import Testing

@testable import ActuatePersonalization

/// Issue 22, point 9 (Evergage): "addToCart, removeFromCart, purchase, review, share, comment and favorite ask the
/// source too, not only views and trackAction".
@Suite("Campaigns respond to item interactions")
struct CampaignInteractionTests {
    static let shoes = try! Product(id: "sku-1", name: "Trail shoes", price: 80, currency: "EUR")
    static let socks = try! Product(id: "sku-2", name: "Socks", price: 5, currency: "EUR")
    static let story = try! Article(id: "a-1", name: "How to lace")

    /// A source that records every request and answers with nothing.
    final class RecordingSource: CampaignSource {
        private let recorded = Mutex<[CampaignRequest]>([])

        func campaigns(for request: CampaignRequest) async throws -> [Campaign] {
            recorded.withLock { $0.append(request) }
            return []
        }

        var requests: [CampaignRequest] { recorded.withLock { $0 } }
    }

    @Test("Each item interaction asks the campaign source, with its items and the event's properties")
    func interactionsAskTheSource() async throws {
        let source = RecordingSource()
        let fixture = CampaignFixture(source: source)
        let screen = CampaignContextTrackingTests.visibleScreen(fixture)
        let shoesLine = try LineItem(product: Self.shoes, quantity: 2)
        screen.addToCart(shoesLine)
        screen.addToCart(try LineItem(product: Self.socks))
        screen.removeFromCart(try LineItem(product: Self.socks))
        screen.viewCart(try Order(lineItems: [shoesLine]))
        screen.purchase(try Order(orderID: "o-1", lineItems: [shoesLine, try LineItem(product: Self.socks)]))
        screen.purchase(try Order(orderID: "o-1"))
        screen.review(Self.story, details: try Review(rating: 90))
        screen.share(Self.shoes)
        screen.comment(Self.story)
        screen.favorite(Self.socks)
        await fixture.settle()
        let requests = source.requests
        #expect(
            requests.map(\.trigger) == [
                .interaction(.addToCart, type: .product, ids: ["sku-1"]),
                .interaction(.addToCart, type: .product, ids: ["sku-2"]),
                .interaction(.removeFromCart, type: .product, ids: ["sku-2"]),
                .interaction(.purchase, type: .product, ids: ["sku-1", "sku-2"]),
                .interaction(.review, type: .article, ids: ["a-1"]),
                .interaction(.share, type: .product, ids: ["sku-1"]),
                .interaction(.comment, type: .article, ids: ["a-1"]),
                .interaction(.favorite, type: .product, ids: ["sku-2"]),
            ],
            "viewCart and the repeated order id ask nothing"
        )
        try #require(requests.count == 8)
        #expect(requests.allSatisfy { $0.contextName == "Product" })
        #expect(requests.allSatisfy { $0.identity == StoredIdentity(anonymousID: "visitor-1") })
        #expect(requests[0].properties[CampaignEventKey.lineItem] == shoesLine.jsonValue)
        #expect(requests[1].properties[CampaignEventKey.cart]?.elementCount == 2, "the cart after the change")
        #expect(requests[3].properties[CampaignEventKey.order]?.member("orderId") == "o-1")
        #expect(requests[4].properties[CampaignEventKey.review] == (try Review(rating: 90)).jsonValue)
        #expect(requests[5].properties == [CampaignEventKey.item: Self.shoes.jsonValue])
        #expect(requests[3].description == "purchase Product:sku-1,sku-2 in Product")
    }

    static let rules = #"""
        {
          "campaigns": [
            { "campaignId": "shoe-care", "target": "banner", "trigger": { "addToCart": { "id": "sku-1" } } },
            { "campaignId": "come-back", "target": "banner", "trigger": { "removeFromCart": { "type": "Product" } } },
            { "campaignId": "thanks", "target": "banner", "trigger": { "purchase": {}, "context": "Checkout" } },
            { "campaignId": "socks-buyer", "target": "footer", "trigger": { "purchase": { "id": "sku-2" } } },
            { "campaignId": "reviewer", "target": "banner", "trigger": { "review": { "type": "Article" } } },
            { "campaignId": "sharer", "target": "banner", "trigger": { "share": {} } },
            { "campaignId": "commenter", "target": "banner", "trigger": { "comment": { "id": "a-1" } } },
            { "campaignId": "wishlist", "target": "banner", "trigger": { "favorite": {}, "context": "Wishlist" } }
          ]
        }
        """#

    @Test("Local rules target cart changes, purchases, reviews, shares, comments and favourites")
    func localRulesTargetInteractions() async throws {
        let source = try LocalCampaignSource(data: Data(Self.rules.utf8), name: "interaction rules")
        let fixture = CampaignFixture(source: source)
        let product = CampaignContextTrackingTests.visibleScreen(fixture)
        let checkout = CampaignContextTrackingTests.visibleScreen(fixture, named: "Checkout")
        for screen in [product, checkout] {
            screen.setCampaignHandler(fixture.handler(screen.name), forTarget: "banner")
            screen.setCampaignHandler(fixture.handler(screen.name + " footer"), forTarget: "footer")
        }
        product.addToCart(try LineItem(product: Self.socks))  // not sku-1: nothing
        product.addToCart(try LineItem(product: Self.shoes))
        product.removeFromCart(try LineItem(product: Self.shoes))
        checkout.purchase(try Order(orderID: "o-1"))  // the socks left in the cart
        product.review(Self.shoes)  // a product: nothing
        product.review(Self.story)
        product.share(Self.story)
        product.comment(Self.story)
        product.favorite(Self.shoes)  // not in Wishlist: nothing
        await fixture.settle()
        #expect(
            fixture.deliveries.summary == [
                "Product: shoe-care", "Product: come-back", "Checkout: thanks", "Checkout footer: socks-buyer",
                "Product: reviewer", "Product: sharer", "Product: commenter",
            ]
        )
    }

    @Test("The rules format reads the interaction triggers, and refuses ones that cannot match")
    func interactionTriggersParse() throws {
        let rules = try CampaignRules(data: Data(Self.rules.utf8), name: "rules.json")
        #expect(rules.rules[0].trigger == CampaignTriggerRule(event: .interaction(.addToCart, type: nil, id: "sku-1")))
        #expect(
            rules.rules[2].trigger
                == CampaignTriggerRule(event: .interaction(.purchase, type: nil, id: nil), contextName: "Checkout")
        )
        #expect(rules.rules[4].trigger.description == "review Article:any")
        let mistakes = #"""
            {"campaigns": [
              {"campaignId": "a", "target": "t", "trigger": {"addToCart": {"type": "Article"}}},
              {"campaignId": "b", "target": "t", "trigger": {"favorite": "sku-1"}},
              {"campaignId": "c", "target": "t", "trigger": {"share": {}, "comment": {}}},
              {"campaignId": "d", "target": "t", "trigger": {"purchase": {"orderId": "o-1"}}}
            ]}
            """#
        #expect(
            CampaignRules.validateCampaigns(in: Data(mistakes.utf8)).map(\.description) == [
                #"$.campaigns[0].trigger.addToCart.type: cart lines and orders hold products only; expected "Product" or no type"#,
                #"$.campaigns[1].trigger.favorite: expected an object, found a string ("sku-1")"#,
                #"$.campaigns[2].trigger: expected only one of "share", "comment""#,
                "$.campaigns[3].trigger.purchase.orderId: unknown key; expected one of id, type",
            ]
        )
    }
}

extension JSONValue {
    /// The number of elements, if this is an array.
    fileprivate var elementCount: Int? {
        if case .array(let elements) = self { return elements.count }
        return nil
    }

    /// The member named `key`, if this is an object that has one.
    fileprivate func member(_ key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }
}
