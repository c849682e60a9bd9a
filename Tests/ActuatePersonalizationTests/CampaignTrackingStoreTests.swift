import Foundation
import Testing

@testable import ActuatePersonalization
@testable import ActuateReporting
@testable import ActuateTesting

/// Issue 22, point 10 (Evergage): "A repeated `orderId` and the mirrored cart survive a relaunch (today both live
/// in memory only)." Each test runs two managers in sequence over one real directory, as two launches of an app.
@Suite("Campaign tracking across launches: cart and purchased order ids")
struct CampaignTrackingStoreTests {
    static let shoes = try! Product(
        id: "sku-1",
        name: "Trail shoes",
        url: URL(string: "https://shop.example/sku-1"),
        price: 80,
        listPrice: 99.5,
        currency: "EUR",
        inventoryCount: 3,
        alternateID: "MPN-1",
        categories: [try! ItemCategory(id: "Men|Shoes", isDepartment: true)],
        tags: [try! Tag(id: "Acme", tagType: .brand)],
        published: Date(timeIntervalSince1970: 1_700_000_000),
        rating: 4.5
    )
    static let socks = try! Product(id: "sku-2", name: "Socks", price: 5, currency: "EUR")

    /// One launch: a manager over `directory`, with a reporter and store of its own.
    struct Launch {
        let store = MemoryEventStore()
        let manager: CampaignManager

        init(directory: URL) {
            let harness = ActionTestHarness()
            let reporter = Reporter(
                store: store,
                delivery: nil,
                scheduler: harness.scheduler,
                identity: Identity(storage: MemoryIdentityStorage(StoredIdentity(anonymousID: "visitor-1")))
            )
            manager = CampaignManager(
                reporter: reporter,
                source: LocalCampaignSource(rules: CampaignRules(rules: [])),
                scheduler: harness.scheduler,
                configuration: CampaignConfiguration(
                    deliveryQueue: DispatchQueue(label: "tracking-store"),
                    session: harness.session
                ),
                directory: directory
            )
        }

        func events(_ type: ReportEventType) throws -> [ReportEvent] {
            try store.fetch(count: 100_000, maxBytes: .max).filter { $0.type == type.rawValue }
        }

        /// The order ids of the recorded purchases, in order.
        func purchasedOrderIDs() throws -> [String?] {
            try events(.purchase).map { $0.properties[CampaignEventKey.order]?.trackedObject?["orderId"]?.stringValue }
        }
    }

    static func fileURL(_ directory: TemporaryDirectory) -> URL {
        directory.appending("campaign-tracking.json")
    }

    @Test("A repeated order id is still ignored after a relaunch, and the cart is still there, every field kept")
    func survivesRelaunch() async throws {
        let directory = TemporaryDirectory()
        let first = Launch(directory: directory.url)
        let global = first.manager.globalContext
        global.addToCart(try LineItem(product: Self.socks, quantity: 2))
        global.purchase(try Order(orderID: "order-1"))
        global.addToCart(try LineItem(product: Self.shoes, quantity: 2, price: 75))
        global.addToCart(try LineItem(product: Self.socks))
        global.removeFromCart(try LineItem(product: Self.socks))
        #expect(try first.purchasedOrderIDs() == ["order-1"])
        let cart = first.manager.cart
        await first.manager.waitUntilSettled()

        let second = Launch(directory: directory.url)
        #expect(second.manager.cart == cart)
        #expect(second.manager.cart.first?.product == Self.shoes)
        #expect(second.manager.cart.map(\.quantity) == [2])
        second.manager.globalContext.purchase(
            try Order(orderID: "order-1", lineItems: [try LineItem(product: Self.socks)])
        )
        #expect(try second.purchasedOrderIDs() == [], "order-1 was bought in the first launch")
        #expect(second.manager.cart == cart, "an ignored purchase leaves the cart")
        second.manager.globalContext.purchase(try Order(orderID: "order-2"))
        #expect(try second.purchasedOrderIDs() == ["order-2"])
        #expect(second.manager.cart.isEmpty)
        #expect(try second.events(CampaignEventType.storageError).isEmpty)
        await second.manager.waitUntilSettled()

        let third = Launch(directory: directory.url)
        #expect(third.manager.cart.isEmpty, "the purchase emptied the saved cart")
        third.manager.globalContext.purchase(
            try Order(orderID: "order-2", lineItems: [try LineItem(product: Self.socks)])
        )
        third.manager.globalContext.purchase(
            try Order(orderID: "order-1", lineItems: [try LineItem(product: Self.socks)])
        )
        #expect(try third.purchasedOrderIDs() == [])
    }

    @Test("The file is readable by its owner only")
    func ownerOnly() async throws {
        let directory = TemporaryDirectory()
        let launch = Launch(directory: directory.url)
        launch.manager.globalContext.addToCart(try LineItem(product: Self.socks))
        await launch.manager.waitUntilSettled()
        let attributes = try FileManager.default.attributesOfItem(atPath: Self.fileURL(directory).path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("Only the last 1,000 order ids are remembered, across launches too")
    func boundedOrderIDs() async throws {
        let directory = TemporaryDirectory()
        let ids = (0..<1_005).map { "order-\($0)" }
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let file: JSONValue = ["version": 1, "cart": [], "orderIds": .array(ids.map(JSONValue.string))]
        try JSONEncoder().encode(file).write(to: Self.fileURL(directory))

        let launch = Launch(directory: directory.url)
        let line = try LineItem(product: Self.socks)
        launch.manager.globalContext.purchase(try Order(orderID: "order-1004", lineItems: [line]))
        launch.manager.globalContext.purchase(try Order(orderID: "order-4", lineItems: [line]))
        // order-4 was among the 5 oldest ids, forgotten on load; remembering it again forgets order-5, the oldest.
        launch.manager.globalContext.purchase(try Order(orderID: "order-6", lineItems: [line]))
        #expect(try launch.purchasedOrderIDs() == ["order-4"], "order-0 to order-4 were the oldest, and forgotten")
        await launch.manager.waitUntilSettled()

        let saved = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: Self.fileURL(directory)))
        guard case .array(let remembered) = saved.trackedObject?["orderIds"] else {
            Issue.record("no orderIds in \(saved)")
            return
        }
        #expect(remembered.count == TrackingState.maxRememberedOrderIDs)
        #expect(remembered.first == "order-6")
        #expect(remembered.last == "order-4")
    }

    @Test("Purchases in one launch forget the oldest order id beyond 1,000")
    func boundedInMemory() throws {
        var state = TrackingState()
        let line = try LineItem(product: Self.socks)
        for index in 0..<1_001 {
            _ = state.purchase(try Order(orderID: "order-\(index)", lineItems: [line]))
        }
        #expect(state.saved.orderIDs.count == 1_000)
        #expect(throws: Never.self) { try state.purchase(Order(orderID: "order-0", lineItems: [line])).get() }
        #expect(throws: TrackingState.PurchaseRefusal.self) {
            try state.purchase(Order(orderID: "order-1000", lineItems: [line])).get()
        }
    }

    /// A damaged file, and words its error event must contain.
    struct Damage: Sendable, CustomStringConvertible {
        var label: String
        var contents: String
        var reason: String
        var description: String { label }
    }

    static let damages = [
        Damage(label: "not JSON", contents: "{\"version\": 1, \"cart\": [", reason: "not valid JSON"),
        Damage(label: "torn to nothing", contents: "", reason: "not valid JSON"),
        Damage(label: "unknown version", contents: #"{"version": 2}"#, reason: "expected version 1"),
        Damage(
            label: "quantity beyond any integer",
            contents:
                #"{"version": 1, "cart": [{"item": {"type": "Product", "id": "a"}, "quantity": 1e300, "price": 1}]}"#,
            reason: "cart[0]"
        ),
        Damage(
            label: "fractional quantity",
            contents:
                #"{"version": 1, "cart": [{"item": {"type": "Product", "id": "a"}, "quantity": 1.5, "price": 1}]}"#,
            reason: "quantity"
        ),
        Damage(
            label: "negative price",
            contents:
                #"{"version": 1, "cart": [{"item": {"type": "Product", "id": "a"}, "quantity": 1, "price": -1}]}"#,
            reason: "price"
        ),
        Damage(
            label: "not a product",
            contents: #"{"version": 1, "cart": [{"item": {"type": "Tag", "id": "a"}, "price": 1}]}"#,
            reason: "type"
        ),
        Damage(label: "empty order id", contents: #"{"version": 1, "orderIds": [""]}"#, reason: "orderIds[0]"),
        Damage(label: "order ids not a list", contents: #"{"version": 1, "orderIds": "a"}"#, reason: "orderIds"),
    ]

    @Test(
        "A damaged file is set aside with an error event, tracking starts empty and writes a new file",
        arguments: damages
    )
    func damagedFile(_ damage: Damage) async throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        try Data(damage.contents.utf8).write(to: Self.fileURL(directory))

        let launch = Launch(directory: directory.url)
        #expect(launch.manager.cart.isEmpty)
        let errors = try launch.events(CampaignEventType.storageError)
        #expect(errors.count == 1)
        let message = errors.first?.properties[CampaignEventKey.message]?.stringValue ?? ""
        #expect(message.contains("campaign-tracking.json is damaged"), "\(message)")
        #expect(message.contains(damage.reason), "\(message)")
        #expect(message.contains("moved to campaign-tracking.json.corrupt"), "\(message)")
        let aside = Self.fileURL(directory).appendingPathExtension("corrupt")
        // Read through a file handle: Foundation's Data(contentsOf:) leaks its 4 KB buffer for an empty file
        // (LeakSanitizer reports it for the "torn to nothing" case).
        let handle = try FileHandle(forReadingFrom: aside)
        let kept = try handle.readToEnd() ?? Data()
        try handle.close()
        #expect(kept == Data(damage.contents.utf8), "kept for inspection, never deleted")

        launch.manager.globalContext.purchase(
            try Order(orderID: "order-1", lineItems: [try LineItem(product: Self.socks)])
        )
        #expect(try launch.purchasedOrderIDs() == ["order-1"])
        await launch.manager.waitUntilSettled()
        let next = Launch(directory: directory.url)
        #expect(try next.events(CampaignEventType.storageError).isEmpty)
        next.manager.globalContext.purchase(
            try Order(orderID: "order-1", lineItems: [try LineItem(product: Self.socks)])
        )
        #expect(try next.purchasedOrderIDs() == [])
    }

    @Test("A file that cannot be written gives an error event, and tracking goes on in memory")
    func unwritable() async throws {
        let directory = TemporaryDirectory()
        // A plain file where the directory should be: nothing can be created under it.
        try Data("not a directory".utf8).write(to: directory.url)
        let launch = Launch(directory: directory.url)
        launch.manager.globalContext.addToCart(try LineItem(product: Self.socks))
        #expect(launch.manager.cart.count == 1)
        await launch.manager.waitUntilSettled()
        let errors = try launch.events(CampaignEventType.storageError)
        #expect(errors.count == 1)
        #expect(errors.first?.properties[CampaignEventKey.message]?.stringValue?.contains("failed") == true)
    }
}

extension JSONValue {
    /// The object's members, or nil for other values.
    fileprivate var trackedObject: [String: JSONValue]? {
        if case .object(let object) = self { return object }
        return nil
    }
}
