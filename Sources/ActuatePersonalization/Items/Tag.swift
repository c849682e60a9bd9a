import ActuateReporting
import Foundation

/// A tag that describes items, such as a brand or an author, viewable in its own right.
///
/// In test files that also import Swift Testing, write `ActuatePersonalization.Tag`.
public struct Tag: Item, DescribedItem, Hashable {
    public static var itemType: ItemType { .tag }

    /// The tag's value, for example `Acme`; never empty.
    public let id: String
    /// What the tag says about an item.
    var tagType: TagType
    var name: String?
    var description: String?
    var url: URL?
    var imageUrl: URL?

    var published: Date? { nil }
    var expiration: Date? { nil }
    var tags: [Tag] { [] }
    var rating: Double? { nil }

    /// Creates a tag.
    /// - Parameters:
    ///   - id: The tag's value; surrounding whitespace is removed.
    ///   - tagType: What the tag says about an item.
    ///   - name: A name to show.
    ///   - description: A longer description.
    ///   - url: The tag's page.
    ///   - imageUrl: An image for the tag.
    /// - Throws: ``ItemError`` when `id` is empty.
    public init(
        id: String,
        tagType: TagType,
        name: String? = nil,
        description: String? = nil,
        url: URL? = nil,
        imageUrl: URL? = nil
    ) throws(ItemError) {
        self.id = try ItemCheck.identifier(id, type: "Tag")
        self.tagType = tagType
        self.name = name
        self.description = description
        self.url = url
        self.imageUrl = imageUrl
    }

    /// The tag as events carry it, with its `tagType`.
    public var jsonValue: JSONValue {
        var json = ItemJSON(self)
        json.set("tagType", tagType.rawValue)
        return json.value
    }
}

/// What a ``Tag`` says about an item; the names are Evergage's.
public enum TagType: String, Sendable, Hashable, Codable, CaseIterable {
    /// The maker, for example `Acme`.
    case brand = "Brand"
    /// The kind of item, for example `Shoes`.
    case itemClass = "ItemClass"
    /// Who the item is for.
    case gender = "Gender"
    /// A style, for example `Casual`.
    case style = "Style"
    /// The author of an article or post.
    case author = "Author"
    /// A keyword.
    case keyword = "Keyword"
    /// The kind of content, for example `How-to`.
    case contentClass = "ContentClass"
}
