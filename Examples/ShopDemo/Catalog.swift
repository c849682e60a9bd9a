import Actuate

/// A product in the demo shop.
struct Product: Loggable, Hashable {
    var id: String
    var name: String
    var price: Double

    var loggingDescription: String { "\(id) \(name)" }
}

/// The demo's product catalog: a few products held in memory.
enum Catalog {
    static let products: [Product] = [
        Product(id: "p1", name: "Espresso Machine", price: 249),
        Product(id: "p2", name: "Burr Grinder", price: 119),
        Product(id: "p3", name: "Milk Jug", price: 18.5),
        Product(id: "p4", name: "Tamper", price: 29),
    ]

    static func product(id: String) -> Product? {
        products.first { $0.id == id }
    }
}
