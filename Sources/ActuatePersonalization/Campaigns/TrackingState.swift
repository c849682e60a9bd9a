import ActuateReporting
import Foundation

/// What tracking remembers between calls: the mirrored cart, the order ids already purchased, the campaigns last
/// delivered to the global context, and user and account attributes waiting for the next event.
///
/// The cart, the order ids and the global context's deliveries are ``Saved`` across launches in the manager's
/// directory (see ``CampaignTrackingStore``); ``savedGeneration`` counts their changes, so a change is written once
/// and an older snapshot never overwrites a newer one. Only the last ``maxRememberedOrderIDs`` order ids are
/// remembered, and only the deliveries still inside the duplicate window.
struct TrackingState: Sendable {
    /// How many purchased order ids are remembered to ignore a repeated purchase; older ones are forgotten first.
    static let maxRememberedOrderIDs = 1_000

    /// What survives a relaunch: the mirrored cart, the purchased order ids, oldest first, and the campaigns last
    /// delivered to the global context per target, by target.
    struct Saved: Sendable, Hashable {
        var cart: [LineItem] = []
        var orderIDs: [String] = []
        var delivered: [RecentDelivery] = []
    }

    /// A campaign delivered to the global context, and when, on the wall clock: after a relaunch an identical
    /// campaign is still a duplicate until the duplicate window has passed since `date`.
    struct RecentDelivery: Sendable, Hashable {
        var campaign: Campaign
        var date: Date
    }

    private(set) var cart: [LineItem] = []
    /// The purchased order ids, oldest first, and the same ids as a set for lookups.
    private var orderIDs: [String] = []
    private var purchasedOrderIDs: Set<String> = []
    private var userAttributes: [String: JSONValue] = [:]
    private var accountAttributes: [String: JSONValue] = [:]
    /// The campaign last delivered to the global context, by target.
    private(set) var recentDeliveries: [String: RecentDelivery] = [:]
    /// Counts changes to the cart, the order ids and the recent deliveries.
    private(set) var savedGeneration: UInt64 = 0

    init() {}

    /// Starts from what an earlier launch saved, keeping the last ``maxRememberedOrderIDs`` order ids.
    init(restoring saved: Saved) {
        cart = saved.cart
        for orderID in saved.orderIDs { remember(orderID) }
        for delivery in saved.delivered { recentDeliveries[delivery.campaign.target] = delivery }
    }

    /// The cart, the remembered order ids and the recent deliveries, as they are saved.
    var saved: Saved {
        Saved(
            cart: cart,
            orderIDs: orderIDs,
            delivered: recentDeliveries.keys.sorted().compactMap { recentDeliveries[$0] }
        )
    }

    /// Notes that `campaign` reached the global context's handler at `date`, and forgets deliveries that are
    /// `window` or more older than `date`.
    mutating func noteDelivered(_ campaign: Campaign, at date: Date, window: Duration) {
        recentDeliveries = recentDeliveries.filter { date.timeIntervalSince($0.value.date) < window.seconds }
        recentDeliveries[campaign.target] = RecentDelivery(campaign: campaign, date: date)
        savedGeneration += 1
    }

    private mutating func remember(_ orderID: String) {
        guard purchasedOrderIDs.insert(orderID).inserted else { return }
        orderIDs.append(orderID)
        if orderIDs.count > Self.maxRememberedOrderIDs {
            purchasedOrderIDs.remove(orderIDs.removeFirst())
        }
    }

    // MARK: Cart

    /// Adds a line: to the existing line of the same product (taking the new line's price), or as a new line.
    mutating func add(_ line: LineItem) {
        if let index = cart.firstIndex(where: { $0.product.id == line.product.id }),
            let merged = try? LineItem(
                product: line.product,
                quantity: cart[index].quantity + line.quantity,
                price: line.price
            )
        {
            cart[index] = merged
        } else {
            cart.append(line)
        }
        savedGeneration += 1
    }

    /// Removes a line's quantity from the line of the same product, removing the line when none is left.
    mutating func remove(_ line: LineItem) {
        guard let index = cart.firstIndex(where: { $0.product.id == line.product.id }) else { return }
        let remaining = cart[index].quantity - line.quantity
        if remaining > 0, let reduced = try? cart[index].with(quantity: remaining) {
            cart[index] = reduced
        } else {
            cart.remove(at: index)
        }
        savedGeneration += 1
    }

    /// Replaces the cart with an order's lines.
    mutating func replaceCart(with order: Order) {
        cart = order.lineItems
        savedGeneration += 1
    }

    /// Settles a purchase: the order with the cart's lines when it has none, or nil when it is refused.
    mutating func purchase(_ order: Order) -> Result<Order, PurchaseRefusal> {
        if let orderID = order.orderID, purchasedOrderIDs.contains(orderID) {
            return .failure(.repeatedOrderID(orderID))
        }
        let settled = order.lineItems.isEmpty ? order.with(lineItems: cart) : order
        guard !settled.lineItems.isEmpty else { return .failure(.nothingBought) }
        if let orderID = order.orderID { remember(orderID) }
        cart = []
        savedGeneration += 1
        return .success(settled)
    }

    /// Why a purchase was not recorded.
    enum PurchaseRefusal: Error, Sendable, Hashable {
        /// The order id was purchased before: ignored, as a repeated delivery of the same purchase.
        case repeatedOrderID(String)
        /// The order had no line items and the cart was empty.
        case nothingBought
    }

    // MARK: Attributes

    mutating func setUserAttribute(_ value: JSONValue, forName name: String) {
        userAttributes[name] = value
    }

    mutating func setAccountAttribute(_ value: JSONValue, forName name: String) {
        accountAttributes[name] = value
    }

    /// Takes the waiting attributes as event properties, leaving none waiting.
    mutating func takeAttributes() -> [String: JSONValue] {
        var properties: [String: JSONValue] = [:]
        if !userAttributes.isEmpty { properties[CampaignEventKey.userAttributes] = .object(userAttributes) }
        if !accountAttributes.isEmpty { properties[CampaignEventKey.accountAttributes] = .object(accountAttributes) }
        userAttributes = [:]
        accountAttributes = [:]
        return properties
    }

    /// Puts back attributes taken for an event that was not stored; values set since then win.
    mutating func restoreAttributes(_ properties: [String: JSONValue]) {
        if case .object(let user) = properties[CampaignEventKey.userAttributes] {
            userAttributes.merge(user) { newer, _ in newer }
        }
        if case .object(let account) = properties[CampaignEventKey.accountAttributes] {
            accountAttributes.merge(account) { newer, _ in newer }
        }
    }
}
