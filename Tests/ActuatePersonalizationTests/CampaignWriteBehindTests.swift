import Foundation
import Testing

@testable import ActuatePersonalization
@testable import ActuateReporting
@testable import ActuateTesting

/// Issue 45, point 1: campaign delivery and tracking do no file write or sync on the caller's queue. With the
/// manager's writer queue held, every call returns and delivers, and no file appears; once the writer runs, the
/// file holds the newest snapshot.
@Suite("Campaign tracking written behind the caller")
struct CampaignWriteBehindTests {
    static let c1 = Campaign.test("c1")
    static let socks = try! Product(id: "sku-2", name: "Socks", price: 5, currency: "EUR")

    static func fileExists(_ fixture: CampaignFixture) -> Bool {
        FileManager.default.fileExists(atPath: fixture.directory.appending("campaign-tracking.json").path)
    }

    @Test("cart, purchase and a delivery return while the writer is held; the file is written after, coalesced")
    func callerWritesNothing() async throws {
        let fixture = CampaignFixture(offering: [("Open Home", Self.c1)])
        let writer = try #require(fixture.manager.engine.trackingWriter)
        writer.queue.suspend()
        var resumed = false
        // A suspended queue must be resumed before it is released.
        defer { if !resumed { writer.queue.resume() } }

        let global = fixture.manager.globalContext
        global.setCampaignHandler(fixture.handler("home"), forTarget: "banner")
        global.addToCart(try LineItem(product: Self.socks, quantity: 2))
        global.purchase(try Order(orderID: "order-1"))
        global.addToCart(try LineItem(product: Self.socks))
        global.trackAction("Open Home")
        await fixture.manager.engine.waitUntilDelivered()
        #expect(fixture.deliveries.summary == ["home: c1"], "delivery does not wait for the writer")
        let cart = fixture.manager.cart
        #expect(!cart.isEmpty)
        #expect(!Self.fileExists(fixture), "nothing was written on the caller's or the delivery's queue")
        #expect(writer.writeCount == 0)

        writer.queue.resume()
        resumed = true
        await fixture.settle()
        #expect(writer.writeCount == 1, "the snapshots taken while the writer was held were coalesced")
        let (saved, problem) = CampaignTrackingStore(directory: fixture.directory.url).load()
        #expect(problem == nil)
        #expect(saved.orderIDs == ["order-1"])
        #expect(saved.cart == cart)
        #expect(saved.delivered.map(\.campaign) == [Self.c1])
    }
}
