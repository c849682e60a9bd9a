import Actuate

/// A product in the demo shop.
struct Product: Loggable, Hashable {
    var id: String
    var name: String
    var price: Double

    var loggingDescription: String { "\(id) \(name)" }
}

/// Where actions look products up: a dependency (``CatalogKey``), so that a test or another system can give
/// actions a catalog of its own.
protocol ProductCatalog: Sendable {
    /// Every product.
    var products: [Product] { get }
}

extension ProductCatalog {
    func product(id: String) -> Product? {
        products.first { $0.id == id }
    }
}

/// The key of the catalog the shop's actions read.
enum CatalogKey: DependencyKey {
    static var liveValue: any ProductCatalog { Catalog() }
}

/// The demo's product catalog: a few products held in memory.
struct Catalog: ProductCatalog {
    var products: [Product] { Self.all }

    /// The products, fixed data.
    static let all: [Product] = [
        Product(id: "p1", name: "Espresso Machine", price: 249),
        Product(id: "p2", name: "Burr Grinder", price: 119),
        Product(id: "p3", name: "Milk Jug", price: 18.5),
        Product(id: "p4", name: "Tamper", price: 29),
    ]

}
