import ActuateReporting

/// What tracking remembers between calls: the mirrored cart, the order ids already purchased, and user and
/// account attributes waiting for the next event.
struct TrackingState: Sendable {
    private(set) var cart: [LineItem] = []
    private var purchasedOrderIds: Set<String> = []
    private var userAttributes: [String: JSONValue] = [:]
    private var accountAttributes: [String: JSONValue] = [:]

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
    }

    /// Replaces the cart with an order's lines.
    mutating func replaceCart(with order: Order) {
        cart = order.lineItems
    }

    /// Settles a purchase: the order with the cart's lines when it has none, or nil when it is refused.
    mutating func purchase(_ order: Order) -> Result<Order, PurchaseRefusal> {
        if let orderId = order.orderId, purchasedOrderIds.contains(orderId) {
            return .failure(.repeatedOrderId(orderId))
        }
        let settled = order.lineItems.isEmpty ? order.with(lineItems: cart) : order
        guard !settled.lineItems.isEmpty else { return .failure(.nothingBought) }
        if let orderId = order.orderId { purchasedOrderIds.insert(orderId) }
        cart = []
        return .success(settled)
    }

    /// Why a purchase was not recorded.
    enum PurchaseRefusal: Error, Sendable, Hashable {
        /// The order id was purchased before: ignored, as a repeated delivery of the same purchase.
        case repeatedOrderId(String)
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
