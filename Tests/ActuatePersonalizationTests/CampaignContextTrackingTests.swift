import ActuateReporting
import ActuateTesting
import Foundation
import Testing

@testable import ActuatePersonalization

@Suite("Campaign contexts: item, commerce and engagement tracking")
struct CampaignContextTrackingTests {
    static let shoes = try! Product(id: "sku-1", name: "Trail shoes", price: 80, currency: "EUR")
    static let socks = try! Product(id: "sku-2", name: "Socks", price: 5, currency: "EUR")

    static func visibleScreen(_ fixture: CampaignFixture, named name: String = "Product") -> CampaignScreen {
        let screen = fixture.manager.makeScreen(named: name)
        screen.viewWillAppear()
        screen.viewDidAppear()
        return screen
    }

    @Test("A view records the item and its action name, and asks for the campaigns the item view earns")
    func viewItemEarnsCampaigns() async throws {
        let rule = CampaignRule(
            campaign: .test("shoes-banner"),
            trigger: CampaignTriggerRule(event: .itemView(type: .product, id: "sku-1"), contextName: "Product")
        )
        let fixture = CampaignFixture(source: LocalCampaignSource(rules: CampaignRules(rules: [rule])))
        let screen = Self.visibleScreen(fixture)
        screen.setCampaignHandler(fixture.handler("product"), forTarget: "banner")
        let other = Self.visibleScreen(fixture, named: "Search")
        other.setCampaignHandler(fixture.handler("search"), forTarget: "banner")
        other.viewItem(Self.shoes)
        screen.viewItem(Self.socks)
        screen.viewItemDetail(Self.shoes, actionName: "Size Chart")
        await fixture.settle()
        #expect(fixture.deliveries.summary == ["product: shoes-banner"], "only the Product screen's view of sku-1")
        let views = try fixture.events().filter { $0.type.hasPrefix("view_item") }
        #expect(views.map(\.type) == ["view_item", "view_item", "view_item_detail"])
        #expect(views.map { $0.properties[CampaignEventKey.context] } == ["Search", "Product", "Product"])
        #expect(views[2].properties[CampaignEventKey.actionName] == "Size Chart")
        #expect(views[2].properties[CampaignEventKey.item] == Self.shoes.jsonValue)
    }

    @Test("Categories and tags are tracked as their own views; nil records no view")
    func categoriesAndTags() async throws {
        let fixture = CampaignFixture(offering: [])
        let screen = Self.visibleScreen(fixture)
        screen.viewCategory(try ItemCategory(id: "Men|Shoes"))
        screen.viewTag(try ActuatePersonalization.Tag(id: "Acme", tagType: .brand), actionName: "Brand Page")
        screen.viewTag(nil)
        await fixture.settle()
        let types = try fixture.events().map(\.type).filter { $0 != "view_time" }
        #expect(types == ["view_category", "view_tag"])
    }

    @Test("View time counts only while the context is active, and is recorded when the view ends or pauses")
    func viewTime() async throws {
        let fixture = CampaignFixture(offering: [])
        let screen = Self.visibleScreen(fixture)
        let scheduler = fixture.scheduler
        screen.viewItem(Self.shoes)
        scheduler.advance(by: .seconds(10))
        fixture.manager.setApplicationInForeground(false)
        scheduler.advance(by: .seconds(20))
        fixture.manager.setApplicationInForeground(true)
        scheduler.advance(by: .seconds(5))
        screen.viewItem(Self.socks)  // ends the first view: 10 + 5 active seconds
        scheduler.advance(by: .seconds(3))
        screen.viewWillDisappear()  // pauses the second view after 3 s
        scheduler.advance(by: .seconds(40))
        screen.viewWillAppear()
        screen.viewDidAppear()
        scheduler.advance(by: .seconds(4))
        screen.viewItem(nil)  // ends it after 4 more active seconds
        scheduler.advance(by: .seconds(9))
        screen.viewItem(nil)  // nothing is viewed, nothing to record
        await fixture.settle()
        let times = try fixture.events(CampaignEventType.viewTime)
        #expect(times.map { $0.properties[CampaignEventKey.seconds] } == [15, 3, 4])
        #expect(times.map { $0.properties[CampaignEventKey.item]?.trackedItemID } == ["sku-1", "sku-2", "sku-2"])
        #expect(times.allSatisfy { $0.properties[CampaignEventKey.viewType] == "view_item" })
    }

    @Test("An idle user gathers no view time")
    func idleStopsViewTime() async throws {
        let fixture = CampaignFixture(offering: [])
        let screen = Self.visibleScreen(fixture)
        screen.viewItem(Self.shoes)
        fixture.scheduler.advance(by: CampaignFixture.idleThreshold + .seconds(100))
        screen.viewItem(nil)
        await fixture.settle()
        #expect(try fixture.events(CampaignEventType.viewTime).map { $0.properties[CampaignEventKey.seconds] } == [60])
    }

    @Test("The mirrored cart merges lines of one product, removes quantities, and is replaced by viewCart")
    func cart() async throws {
        let fixture = CampaignFixture(offering: [])
        let global = fixture.manager.globalContext
        global.addToCart(try LineItem(product: Self.shoes))
        global.addToCart(try LineItem(product: Self.socks, quantity: 3))
        global.addToCart(try LineItem(product: Self.shoes, quantity: 2, price: 70))
        #expect(
            fixture.manager.cart.map { "\($0.product.id)×\($0.quantity)@\($0.price)" } == [
                "sku-1×3@70.0", "sku-2×3@5.0",
            ]
        )
        global.removeFromCart(try LineItem(product: Self.socks, quantity: 2))
        global.removeFromCart(try LineItem(product: Self.shoes, quantity: 5))
        #expect(fixture.manager.cart.map { "\($0.product.id)×\($0.quantity)" } == ["sku-2×1"])
        global.viewCart(try Order(lineItems: [try LineItem(product: Self.shoes, quantity: 4)]))
        #expect(fixture.manager.cart.map { "\($0.product.id)×\($0.quantity)" } == ["sku-1×4"])

        let events = try fixture.events()
        #expect(
            events.map(\.type)
                == ["add_to_cart", "add_to_cart", "add_to_cart", "remove_from_cart", "remove_from_cart", "view_cart"]
        )
        let lastRemoval = events[4].properties[CampaignEventKey.cart]
        #expect(lastRemoval == .array([try LineItem(product: Self.socks).jsonValue]))
    }

    @Test("A purchase without line items buys the cart and empties it")
    func purchaseUsesCart() async throws {
        let fixture = CampaignFixture(offering: [])
        let global = fixture.manager.globalContext
        global.addToCart(try LineItem(product: Self.shoes))
        global.addToCart(try LineItem(product: Self.socks, quantity: 2))
        global.purchase(try Order(orderID: "A-1", currency: "EUR"))
        #expect(fixture.manager.cart.isEmpty)
        let purchase = try #require(try fixture.events(.purchase).first)
        #expect(purchase.properties[ReportEventKey.productIDs] == ["sku-1", "sku-2"])
        let order = purchase.properties[CampaignEventKey.order]
        #expect(order?.trackedObject?["orderId"] == "A-1")
        #expect(order?.trackedObject?["totalValue"] == 90)
        #expect(order?.trackedObject?["lineItems"]?.trackedArrayCount == 2)
    }

    @Test("A repeated order id is ignored after the first purchase; purchases without an id are all kept")
    func purchaseDeduplication() async throws {
        let fixture = CampaignFixture(offering: [], reportDecisions: true)
        let global = fixture.manager.globalContext
        let line = try LineItem(product: Self.shoes)
        global.purchase(try Order(orderID: "A-1", lineItems: [line]))
        global.purchase(try Order(orderID: "A-1", lineItems: [line, line]))
        global.purchase(try Order(orderID: "A-2", lineItems: [line]))
        global.purchase(try Order(lineItems: [line]))
        global.purchase(try Order(lineItems: [line]))
        await fixture.settle()
        let ids = try fixture.events(.purchase).map { $0.properties[CampaignEventKey.order]?.trackedObject?["orderId"] }
        #expect(ids == ["A-1", "A-2", nil, nil])
        // The drop leaves a trace: a timeline action with its reason, and an event.
        let ignored = fixture.harness.timeline.snapshot().filter { $0.actionName == "Ignore Purchase" }
        #expect(ignored.map(\.inputDescription) == ["order A-1 in global: the order id was purchased before"])
        let events = try fixture.events().filter { $0.type == "purchase_ignored" }
        #expect(events.map { $0.properties["orderId"] } == ["A-1"])
        #expect(events.map { $0.properties["reason"] } == ["repeatedOrderID"])
    }

    @Test("A purchase with no line items and an empty cart is a tracking error, and does not use up its order id")
    func purchaseOfNothing() async throws {
        let fixture = CampaignFixture(offering: [])
        let global = fixture.manager.globalContext
        global.purchase(try Order(orderID: "A-1"))
        global.purchase(try Order(orderID: "A-1", lineItems: [try LineItem(product: Self.shoes)]))
        let events = try fixture.events()
        #expect(events.map(\.type) == ["tracking_error", "purchase"])
        #expect(events[0].properties[CampaignEventKey.message] == "the order has no line items and the cart is empty")
        #expect(events[0].properties[CampaignEventKey.call] == "purchase")
    }

    @Test("Reviews, shares, comments, favourites and actions are recorded with their item or name")
    func engagement() async throws {
        let fixture = CampaignFixture(offering: [])
        let global = fixture.manager.globalContext
        let guide = try Article(id: "care", name: "Leather care")
        global.review(Self.shoes, details: try Review(rating: 90, text: "Great"))
        global.share(guide)
        global.comment(try Blog(id: "news"))
        global.favorite(Self.shoes)
        global.trackAction("Add to Wishlist")
        global.trackAction("   ")
        await fixture.settle()
        let events = try fixture.events()
        #expect(events.map(\.type) == ["review", "share", "comment", "favorite", "user_action", "tracking_error"])
        #expect(events[0].properties[CampaignEventKey.review] == ["rating": 90, "text": "Great"])
        #expect(events[1].properties[CampaignEventKey.item] == guide.jsonValue)
        #expect(events[4].properties[CampaignEventKey.name] == "Add to Wishlist")
        #expect(events[5].properties[CampaignEventKey.message] == "the action name is empty")
    }

    @Test("User and account attributes travel with the next event only")
    func attributesTravelWithNextEvent() async throws {
        let fixture = CampaignFixture(offering: [])
        let global = fixture.manager.globalContext
        fixture.manager.setUserAttribute("gold", forName: "tier")
        fixture.manager.setUserAttribute(nil, forName: "nickname")
        fixture.manager.setAccountAttribute("Acme Ltd", forName: "company")
        global.trackAction("First")
        global.trackAction("Second")
        await fixture.settle()
        let events = try fixture.events()
        #expect(events[0].properties[CampaignEventKey.userAttributes] == ["tier": "gold", "nickname": nil])
        #expect(events[0].properties[CampaignEventKey.accountAttributes] == ["company": "Acme Ltd"])
        #expect(events[1].properties[CampaignEventKey.userAttributes] == nil)
        #expect(events[1].properties[CampaignEventKey.accountAttributes] == nil)
    }

    @Test("Attributes wait for an event that is stored: a refused event does not take them")
    func attributesSurviveSuppressedEvent() async throws {
        let fixture = CampaignFixture(offering: [])
        let global = fixture.manager.globalContext
        fixture.manager.setUserAttribute("gold", forName: "tier")
        fixture.reporter.setTrackingConsent(.denied)
        global.trackAction("Not stored")
        fixture.reporter.setTrackingConsent(.granted)
        global.trackAction("Stored")
        await fixture.settle()
        let events = try fixture.events()
        #expect(events.map { $0.properties[CampaignEventKey.name] } == ["Stored"])
        #expect(events[0].properties[CampaignEventKey.userAttributes] == ["tier": "gold"])
    }

    @Test("A failing campaign source is recorded as an error event and later requests are still answered")
    func sourceFailure() async throws {
        let source = ScriptedCampaignSource { request in
            if request.trigger == .action("Broken") { throw ScriptedCampaignSource.Failure(description: "HTTP 503") }
            return [.test("c1")]
        }
        let fixture = CampaignFixture(source: source)
        let global = fixture.manager.globalContext
        global.setCampaignHandler(fixture.handler("home"), forTarget: "banner")
        global.trackAction("Broken")
        global.trackAction("Working")
        await fixture.settle()
        #expect(fixture.deliveries.summary == ["home: c1"])
        let error = try #require(try fixture.events(CampaignEventType.campaignSourceError).first)
        #expect(error.properties[CampaignEventKey.message] == "HTTP 503")
        #expect(error.properties["request"] == #"action "Broken" in global"#)
    }
}

extension JSONValue {
    /// The object, if this is an object.
    fileprivate var trackedObject: [String: JSONValue]? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The number of elements, if this is an array.
    fileprivate var trackedArrayCount: Int? {
        if case .array(let array) = self { return array.count }
        return nil
    }

    /// The `id` of an object.
    fileprivate var trackedItemID: JSONValue? { trackedObject?["id"] }
}
