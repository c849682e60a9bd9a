import ActuateReporting
import Foundation
import Testing

@testable import ActuatePersonalization

@Suite("Items")
struct ItemTests {
    /// One way of building an item that must be refused, with the error it must give.
    struct Mistake: Sendable, CustomTestStringConvertible {
        var label: String
        var expected: String
        var build: @Sendable () throws -> Void

        var testDescription: String { label }
    }

    static let mistakes: [Mistake] = [
        Mistake(label: "empty product id", expected: "Product.id: must not be empty") { _ = try Product(id: "") },
        Mistake(label: "blank product id", expected: "Product.id: must not be empty") { _ = try Product(id: "  \n") },
        Mistake(label: "empty article id", expected: "Article.id: must not be empty") { _ = try Article(id: "") },
        Mistake(label: "empty blog id", expected: "Blog.id: must not be empty") { _ = try Blog(id: " ") },
        Mistake(label: "empty category id", expected: "Category.id: must not be empty") {
            _ = try ItemCategory(id: "")
        },
        Mistake(
            label: "empty category level",
            expected: #"Category.id: level 2 of "Men||Shoes" is empty; write levels as Top|Middle|Bottom"#
        ) { _ = try ItemCategory(id: "Men||Shoes") },
        Mistake(
            label: "leading pipe in a category",
            expected: #"Category.id: level 1 of "|Shoes" is empty; write levels as Top|Middle|Bottom"#
        ) { _ = try ItemCategory(id: "|Shoes") },
        Mistake(label: "empty tag id", expected: "Tag.id: must not be empty") {
            _ = try ActuatePersonalization.Tag(id: "", tagType: .brand)
        },
        Mistake(label: "negative price", expected: "Product.price: must be a finite number of at least 0, found -1.0") {
            _ = try Product(id: "sku-1", price: -1)
        },
        Mistake(
            label: "infinite list price",
            expected: "Product.listPrice: must be a finite number of at least 0, found inf"
        ) {
            _ = try Product(id: "sku-1", listPrice: .infinity)
        },
        Mistake(label: "NaN rating", expected: "Article.rating: must be a finite number of at least 0, found nan") {
            _ = try Article(id: "a", rating: .nan)
        },
        Mistake(label: "negative stock", expected: "Product.inventoryCount: must be at least 0, found -3") {
            _ = try Product(id: "sku-1", inventoryCount: -3)
        },
        Mistake(
            label: "lower-case currency",
            expected: #"Product.currency: must be an ISO 4217 code of three capital letters such as EUR, found "eur""#
        ) { _ = try Product(id: "sku-1", currency: "eur") },
        Mistake(label: "negative quantity", expected: "LineItem.quantity: must be at least 1, found negative -2") {
            _ = try LineItem(product: Product(id: "sku-1", price: 5), quantity: -2)
        },
        Mistake(label: "zero quantity", expected: "LineItem.quantity: must be at least 1, found zero 0") {
            _ = try LineItem(product: Product(id: "sku-1", price: 5), quantity: 0)
        },
        Mistake(
            label: "line item without a price",
            expected: #"LineItem.price: product "sku-1" has no price; give the product or the line item a price"#
        ) { _ = try LineItem(product: Product(id: "sku-1")) },
        Mistake(
            label: "negative line price",
            expected: "LineItem.price: must be a finite number of at least 0, found -5.0"
        ) {
            _ = try LineItem(product: Product(id: "sku-1"), price: -5)
        },
        Mistake(label: "empty order id", expected: "Order.orderId: must not be empty") { _ = try Order(orderID: "") },
        Mistake(
            label: "negative order total",
            expected: "Order.totalValue: must be a finite number of at least 0, found -10.0"
        ) {
            _ = try Order(totalValue: -10)
        },
        Mistake(
            label: "order currency of four letters",
            expected: #"Order.currency: must be an ISO 4217 code of three capital letters such as EUR, found "EURO""#
        ) { _ = try Order(currency: "EURO") },
        Mistake(label: "rating 0", expected: "Review.rating: must be from 1 to 100, found 0") {
            _ = try Review(rating: 0)
        },
        Mistake(label: "rating 101", expected: "Review.rating: must be from 1 to 100, found 101") {
            _ = try Review(rating: 101)
        },
        Mistake(label: "negative rating", expected: "Review.rating: must be from 1 to 100, found -5") {
            _ = try Review(rating: -5)
        },
    ]

    @Test("Invalid values are refused with an error naming the type, the field and the problem", arguments: mistakes)
    func invalidValuesAreRefused(_ mistake: Mistake) {
        #expect(throws: ItemError.self) { try mistake.build() }
        do {
            try mistake.build()
        } catch {
            #expect((error as? ItemError)?.description == mistake.expected)
        }
    }

    @Test("Ratings at the ends of the range are accepted")
    func ratingBounds() throws {
        #expect(try Review(rating: 1).rating == 1)
        #expect(try Review(rating: 100).rating == 100)
        #expect(try Review(text: "no rating").rating == nil)
    }

    @Test("Ids are trimmed, and a product reports every detail that is set")
    func productJSON() throws {
        let brand = try ActuatePersonalization.Tag(id: "Acme", tagType: .brand)
        let product = try Product(
            id: " sku-1 ",
            name: "Trail shoes",
            url: URL(string: "https://shop.example.com/p/sku-1"),
            price: 89,
            listPrice: 110,
            currency: "EUR",
            inventoryCount: 4,
            categories: [ItemCategory(id: "Men | Shoes", isDepartment: false)],
            tags: [brand]
        )
        #expect(product.id == "sku-1")
        #expect(product.itemKey == "Product:sku-1")
        #expect(
            product.jsonValue
                == .object([
                    "type": "Product", "id": "sku-1", "name": "Trail shoes", "url": "https://shop.example.com/p/sku-1",
                    "price": 89, "listPrice": 110, "currency": "EUR", "inventoryCount": 4,
                    "categories": [["type": "Category", "id": "Men|Shoes", "name": "Shoes", "isDepartment": false]],
                    "tags": [["type": "Tag", "id": "Acme", "tagType": "Brand"]],
                ])
        )
    }

    @Test("A category's id is a pipe-separated path with a parent and a department flag")
    func categoryHierarchy() throws {
        let trail = try ItemCategory(id: "Men|Shoes|Trail")
        #expect(trail.path == ["Men", "Shoes", "Trail"])
        #expect(trail.parentID == "Men|Shoes")
        #expect(trail.name == "Trail")
        let men = try ItemCategory(id: "Men", isDepartment: true, name: "Men's")
        #expect(men.parentID == nil)
        #expect(men.isDepartment)
        #expect(men.name == "Men's")
    }

    @Test("Every tag type has Evergage's name")
    func tagTypes() {
        #expect(
            TagType.allCases.map(\.rawValue)
                == ["Brand", "ItemClass", "Gender", "Style", "Author", "Keyword", "ContentClass"]
        )
    }

    @Test("Articles and blog posts report their own type")
    func articleAndBlog() throws {
        let article = try Article(id: "care", name: "Leather care")
        let post = try Blog(id: "news", published: Date(timeIntervalSince1970: 0))
        #expect(article.jsonValue == .object(["type": "Article", "id": "care", "name": "Leather care"]))
        #expect(post.jsonValue == .object(["type": "Blog", "id": "news", "published": "1970-01-01T00:00:00Z"]))
    }
}
