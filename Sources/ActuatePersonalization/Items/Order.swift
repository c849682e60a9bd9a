import ActuateReporting

/// An order, or an open cart: line items, an optional order id, a total and a currency.
///
/// A purchase whose order has no line items takes them from the cart that ``CampaignContext/addToCart(_:)``,
/// ``CampaignContext/removeFromCart(_:)`` and ``CampaignContext/viewCart(_:)`` mirror; a second purchase with an
/// order id already purchased is ignored.
///
/// ```swift
/// let line = try LineItem(product: shoes, quantity: 2)
/// screen.purchase(try Order(orderID: "A-1001"))                // what is in the cart
/// screen.purchase(try Order(orderID: "A-1002", lineItems: [line], currency: "EUR"))
/// ```
public struct Order: Sendable, Hashable {
    /// The order's id, never empty; carts usually have none.
    let orderID: String?
    /// The lines.
    let lineItems: [LineItem]
    /// The total as given; ``total`` falls back to the sum of the lines.
    let totalValue: Double?
    /// The ISO 4217 code of the order's currency.
    let currency: String?

    /// Creates an order.
    /// - Parameters:
    ///   - orderID: The order's id; surrounding whitespace is removed.
    ///   - lineItems: The lines; none means "what is in the cart" for a purchase.
    ///   - totalValue: The total; the sum of the lines when nil.
    ///   - currency: The ISO 4217 code of the currency.
    /// - Throws: ``ItemError`` for an empty order id, a negative or non-finite total, or a currency that is not
    ///   three capital letters.
    public init(
        orderID: String? = nil,
        lineItems: [LineItem] = [],
        totalValue: Double? = nil,
        currency: String? = nil
    ) throws(ItemError) {
        if let orderID {
            self.orderID = try ItemCheck.identifier(orderID, type: "Order", field: "orderId")
        } else {
            self.orderID = nil
        }
        self.lineItems = lineItems
        self.totalValue = try ItemCheck.amount(totalValue, type: "Order", field: "totalValue")
        self.currency = try ItemCheck.currency(currency, type: "Order")
    }

    /// The total: ``totalValue`` when given, otherwise the sum of the lines.
    var total: Double {
        totalValue ?? lineItems.reduce(0) { $0 + $1.total }
    }

    /// The ids of the products in the order, in line order, each once.
    var productIDs: [String] {
        var seen: Set<String> = []
        return lineItems.map(\.product.id).filter { seen.insert($0).inserted }
    }

    /// The order as events carry it.
    package var jsonValue: JSONValue {
        var object: [String: JSONValue] = [
            "lineItems": .array(lineItems.map(\.jsonValue)),
            "totalValue": .number(total),
        ]
        if let orderID { object["orderId"] = .string(orderID) }
        if let currency { object["currency"] = .string(currency) }
        return .object(object)
    }

    /// The same order with other line items.
    func with(lineItems: [LineItem]) -> Order {
        Order(uncheckedOrderID: orderID, lineItems: lineItems, totalValue: totalValue, currency: currency)
    }

    private init(uncheckedOrderID: String?, lineItems: [LineItem], totalValue: Double?, currency: String?) {
        self.orderID = uncheckedOrderID
        self.lineItems = lineItems
        self.totalValue = totalValue
        self.currency = currency
    }
}
