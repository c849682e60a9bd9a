import ActuateReporting
import Foundation

/// An article: an ``Item`` of editorial content, such as a guide or a news story.
///
/// ```swift
/// let guide = try Article(id: "leather-care", name: "How to care for leather")
/// screen.viewItem(guide, actionName: "Read Guide")
/// ```
public struct Article: Item, DescribedItem, Hashable {
    public static var itemType: ItemType { .article }

    /// The article's id; never empty.
    public let id: String
    /// The categories the article is in.
    var categories: [ItemCategory]
    var name: String?
    var description: String?
    var url: URL?
    var imageUrl: URL?
    var published: Date?
    var expiration: Date?
    var tags: [Tag]
    let rating: Double?

    /// Creates an article.
    /// - Parameters:
    ///   - id: The article's id; surrounding whitespace is removed.
    ///   - name: Its title.
    ///   - description: A summary.
    ///   - url: Its page.
    ///   - imageUrl: An image for it.
    ///   - categories: The categories it is in.
    ///   - tags: Tags describing it, such as its author.
    ///   - published: When it was published.
    ///   - expiration: When it is withdrawn.
    ///   - rating: Its rating in the catalog, at least 0.
    /// - Throws: ``ItemError`` for an empty id or a negative or non-finite rating.
    public init(
        id: String,
        name: String? = nil,
        description: String? = nil,
        url: URL? = nil,
        imageUrl: URL? = nil,
        categories: [ItemCategory] = [],
        tags: [Tag] = [],
        published: Date? = nil,
        expiration: Date? = nil,
        rating: Double? = nil
    ) throws(ItemError) {
        self.id = try ItemCheck.identifier(id, type: "Article")
        self.rating = try ItemCheck.amount(rating, type: "Article", field: "rating")
        self.categories = categories
        self.name = name
        self.description = description
        self.url = url
        self.imageUrl = imageUrl
        self.published = published
        self.expiration = expiration
        self.tags = tags
    }

    /// The article as events carry it, with its categories.
    public var jsonValue: JSONValue {
        var json = ItemJSON(self)
        json.set("categories", categories.map(\.jsonValue))
        return json.value
    }
}
