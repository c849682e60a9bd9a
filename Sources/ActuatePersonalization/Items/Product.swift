import ActuateReporting
import Foundation

/// A product for sale: an ``Item`` with a price, a list price, a currency and stock.
///
/// ```swift
/// let shoes = try Product(id: "sku-1", name: "Trail shoes", price: 89, listPrice: 110, currency: "EUR")
/// screen.addToCart(try LineItem(product: shoes, quantity: 2))
/// ```
public struct Product: Item, DescribedItem, Hashable {
    public static var itemType: ItemType { .product }

    /// The product's id; never empty.
    public let id: String
    /// The price a buyer pays for one, at least 0.
    let price: Double?
    /// The price before any discount, at least 0.
    let listPrice: Double?
    /// The ISO 4217 code of the prices' currency, such as `EUR`.
    let currency: String?
    /// How many are in stock, at least 0.
    let inventoryCount: Int?
    /// Another id for the product, such as a manufacturer's part number.
    var alternateID: String?
    /// The categories the product is in.
    var categories: [ItemCategory]
    var name: String?
    var description: String?
    var url: URL?
    var imageUrl: URL?
    var published: Date?
    var expiration: Date?
    var tags: [Tag]
    let rating: Double?

    /// Creates a product.
    /// - Parameters:
    ///   - id: The product's id; surrounding whitespace is removed.
    ///   - name: A name to show.
    ///   - description: A longer description.
    ///   - url: The product's page.
    ///   - imageUrl: An image of the product.
    ///   - price: The price of one.
    ///   - listPrice: The price before any discount.
    ///   - currency: The ISO 4217 code of the prices' currency.
    ///   - inventoryCount: How many are in stock.
    ///   - alternateID: Another id for the product.
    ///   - categories: The categories the product is in.
    ///   - tags: Tags describing the product.
    ///   - published: When the product was published.
    ///   - expiration: When it stops being offered.
    ///   - rating: Its rating in the catalog, at least 0.
    /// - Throws: ``ItemError`` for an empty id, a negative or non-finite price, list price or rating, a negative
    ///   inventory count, or a currency that is not three capital letters.
    public init(
        id: String,
        name: String? = nil,
        description: String? = nil,
        url: URL? = nil,
        imageUrl: URL? = nil,
        price: Double? = nil,
        listPrice: Double? = nil,
        currency: String? = nil,
        inventoryCount: Int? = nil,
        alternateID: String? = nil,
        categories: [ItemCategory] = [],
        tags: [Tag] = [],
        published: Date? = nil,
        expiration: Date? = nil,
        rating: Double? = nil
    ) throws(ItemError) {
        self.id = try ItemCheck.identifier(id, type: "Product")
        self.price = try ItemCheck.amount(price, type: "Product", field: "price")
        self.listPrice = try ItemCheck.amount(listPrice, type: "Product", field: "listPrice")
        self.currency = try ItemCheck.currency(currency, type: "Product")
        if let inventoryCount, inventoryCount < 0 {
            throw ItemError(
                type: "Product",
                field: "inventoryCount",
                message: "must be at least 0, found \(inventoryCount)"
            )
        }
        self.inventoryCount = inventoryCount
        self.rating = try ItemCheck.amount(rating, type: "Product", field: "rating")
        self.alternateID = alternateID
        self.categories = categories
        self.name = name
        self.description = description
        self.url = url
        self.imageUrl = imageUrl
        self.published = published
        self.expiration = expiration
        self.tags = tags
    }

    /// The product as events carry it, with its prices, stock and categories.
    public var jsonValue: JSONValue {
        var json = ItemJSON(self)
        json.set("price", price)
        json.set("listPrice", listPrice)
        json.set("currency", currency)
        json.set("inventoryCount", inventoryCount.map(Double.init))
        json.set("alternateId", alternateID)
        json.set("categories", categories.map(\.jsonValue))
        return json.value
    }
}
