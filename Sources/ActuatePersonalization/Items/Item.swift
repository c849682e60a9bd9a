import ActuateReporting
import Foundation

/// Something a user can view, buy, review or share: a ``Product``, an ``Article``, a ``Blog`` post, a
/// ``ItemCategory`` or a ``Tag``, as Evergage's item catalog models them.
///
/// Every item has a non-empty ``id``, checked when it is created, and describes itself for events as
/// ``jsonValue``. The rest is optional detail that campaigns and recommendations can use.
///
/// ```swift
/// let shoes = try Product(id: "sku-1", name: "Trail shoes", price: 89, currency: "EUR")
/// screen.viewItem(shoes)
/// ```
public protocol Item: Sendable {
    /// The kind of item, as it appears in events and campaign triggers.
    static var itemType: ItemType { get }
    /// The item's id in the app's catalog; never empty.
    var id: String { get }
    /// The item as events carry it: its type, id and every detail that is set.
    var jsonValue: JSONValue { get }
}

/// The optional detail every built-in item shares; ``Item``'s JSON is built from it.
protocol DescribedItem: Item {
    /// A name to show.
    var name: String? { get }
    /// A longer description.
    var description: String? { get }
    /// The item's page.
    var url: URL? { get }
    /// An image of the item.
    var imageUrl: URL? { get }
    /// When the item was published.
    var published: Date? { get }
    /// When the item stops being offered.
    var expiration: Date? { get }
    /// Tags describing the item.
    var tags: [Tag] { get }
    /// The item's rating, when the catalog has one.
    var rating: Double? { get }
}

extension Item {
    /// The item's kind, read from the instance.
    package var itemType: ItemType { Self.itemType }

    /// `Type:id`, the form ``Campaign/promotedItemKeys`` uses, for example `Product:sku-1`.
    package var itemKey: String { "\(Self.itemType.rawValue):\(id)" }
}

/// The kinds of ``Item``, named as Evergage names them.
public enum ItemType: String, Sendable, Hashable, Codable, CaseIterable {
    /// A ``Product``.
    case product = "Product"
    /// An ``Article``.
    case article = "Article"
    /// A ``Blog`` post.
    case blog = "Blog"
    /// An ``ItemCategory``.
    case category = "Category"
    /// A ``Tag``.
    case tag = "Tag"
}

/// Builds the JSON object an item is reported as, leaving out fields that are not set.
struct ItemJSON {
    private(set) var object: [String: JSONValue]

    /// Starts with `type` and `id`, then the fields every item shares.
    init(_ item: some DescribedItem) {
        object = ["type": .string(type(of: item).itemType.rawValue), "id": .string(item.id)]
        set("name", item.name)
        set("description", item.description)
        set("url", item.url?.absoluteString)
        set("imageUrl", item.imageUrl?.absoluteString)
        set("published", item.published)
        set("expiration", item.expiration)
        set("rating", item.rating)
        if !item.tags.isEmpty { object["tags"] = .array(item.tags.map(\.jsonValue)) }
    }

    mutating func set(_ key: String, _ value: String?) {
        if let value { object[key] = .string(value) }
    }

    mutating func set(_ key: String, _ value: Double?) {
        if let value { object[key] = .number(value) }
    }

    mutating func set(_ key: String, _ value: Bool) {
        object[key] = .bool(value)
    }

    mutating func set(_ key: String, _ value: Date?) {
        if let value { object[key] = .string(value.formatted(.iso8601)) }
    }

    mutating func set(_ key: String, _ values: [JSONValue]) {
        if !values.isEmpty { object[key] = .array(values) }
    }

    var value: JSONValue { .object(object) }
}
