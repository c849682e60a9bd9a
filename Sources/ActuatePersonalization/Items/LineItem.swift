import ActuateReporting

/// A quantity of one product at a price: a line of a cart or an order.
///
/// ```swift
/// let line = try LineItem(product: shoes)               // quantity 1 at the product's price
/// let pair = try LineItem(product: socks, quantity: 2, price: 4.5)
/// ```
public struct LineItem: Sendable, Hashable {
    /// The product.
    package let product: Product
    /// How many, at least 1.
    package let quantity: Int
    /// The price of one, at least 0: the line's own price, or the product's.
    package let price: Double

    /// Creates a line item.
    /// - Parameters:
    ///   - product: The product.
    ///   - quantity: How many; 1 by default.
    ///   - price: The price of one; the product's price when nil.
    /// - Throws: ``ItemError`` when `quantity` is below 1, or when there is no price (neither `price` nor the
    ///   product's) or it is negative or not finite.
    public init(product: Product, quantity: Int = 1, price: Double? = nil) throws(ItemError) {
        guard quantity >= 1 else {
            let kind = quantity < 0 ? "negative" : "zero"
            throw ItemError(
                type: "LineItem",
                field: "quantity",
                message: "must be at least 1, found \(kind) \(quantity)"
            )
        }
        guard let unitPrice = try ItemCheck.amount(price ?? product.price, type: "LineItem", field: "price") else {
            throw ItemError(
                type: "LineItem",
                field: "price",
                message: "product \"\(product.id)\" has no price; give the product or the line item a price"
            )
        }
        self.product = product
        self.quantity = quantity
        self.price = unitPrice
    }

    /// The line's value: ``price`` times ``quantity``.
    package var total: Double { price * Double(quantity) }

    /// The line as events carry it: the product, the quantity and the price.
    package var jsonValue: JSONValue {
        .object(["item": product.jsonValue, "quantity": .number(Double(quantity)), "price": .number(price)])
    }

    /// The same line with another quantity, which must be at least 1.
    func with(quantity: Int) throws(ItemError) -> LineItem {
        try LineItem(product: product, quantity: quantity, price: price)
    }
}
