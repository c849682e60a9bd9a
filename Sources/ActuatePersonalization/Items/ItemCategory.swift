import ActuateReporting
import Foundation

/// A category of the catalog, in a hierarchy written as a pipe-separated path such as `Men|Shoes|Trail`.
///
/// ```swift
/// let trail = try ItemCategory(id: "Men|Shoes|Trail")   // the levels Men, Shoes and Trail
/// let men = try ItemCategory(id: "Men", isDepartment: true)
/// screen.viewCategory(trail)
/// ```
///
/// Its item type is still `Category` in events and rules files. The Swift name is `ItemCategory` because the
/// Objective-C runtime declares a `Category` of its own, which any file that imports Foundation on an Apple
/// platform sees.
public struct ItemCategory: Item, DescribedItem, Hashable {
    public static var itemType: ItemType { .category }

    /// The category's path from the top of the hierarchy, its levels separated by `|`; no level is empty.
    public let id: String
    /// Whether the category is a department, a top-level division of the catalog.
    var isDepartment: Bool
    var name: String?
    var description: String?
    var url: URL?
    var imageUrl: URL?
    var tags: [Tag]

    var published: Date? { nil }
    var expiration: Date? { nil }
    var rating: Double? { nil }

    /// Creates a category.
    /// - Parameters:
    ///   - id: The pipe-separated path, for example `Men|Shoes`; whitespace around each level is removed.
    ///   - isDepartment: Whether the category is a department.
    ///   - name: A name to show; the last level of the path when nil.
    ///   - description: A longer description.
    ///   - url: The category's page.
    ///   - imageUrl: An image for the category.
    ///   - tags: Tags describing the category.
    /// - Throws: ``ItemError`` when the path is empty or has an empty level, such as `Men||Shoes`.
    public init(
        id: String,
        isDepartment: Bool = false,
        name: String? = nil,
        description: String? = nil,
        url: URL? = nil,
        imageUrl: URL? = nil,
        tags: [Tag] = []
    ) throws(ItemError) {
        let trimmed = try ItemCheck.identifier(id, type: "Category")
        let levels = trimmed.split(separator: "|", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let empty = levels.firstIndex(where: \.isEmpty) {
            throw ItemError(
                type: "Category",
                field: "id",
                message: "level \(empty + 1) of \"\(id)\" is empty; write levels as Top|Middle|Bottom"
            )
        }
        self.id = levels.joined(separator: "|")
        self.isDepartment = isDepartment
        self.name = name ?? levels.last
        self.description = description
        self.url = url
        self.imageUrl = imageUrl
        self.tags = tags
    }

    /// The levels of the hierarchy, from the top.
    var path: [String] {
        id.split(separator: "|").map(String.init)
    }

    /// The category one level up, or nil at the top.
    var parentID: String? {
        let levels = path
        return levels.count > 1 ? levels.dropLast().joined(separator: "|") : nil
    }

    /// The category as events carry it, with `isDepartment`.
    public var jsonValue: JSONValue {
        var json = ItemJSON(self)
        json.set("isDepartment", isDepartment)
        return json.value
    }
}
