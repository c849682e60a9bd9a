import ActuateReporting
import Foundation

/// Reads items back from the JSON they are reported and stored as (``Item/jsonValue``, ``LineItem/jsonValue``),
/// for files that keep them between launches.
///
/// Every value goes through the item's own throwing initialiser, so a file can hold nothing that code could not
/// build, and every number is range-checked by ``JSONNumberPolicy`` before it is converted: a damaged file gives an
/// ``ItemError``, never a trap.
enum ItemJSONReader {
    /// A line item from `{"item": {…product…}, "quantity": 2, "price": 4.5}`.
    static func lineItem(_ json: JSONValue) throws(ItemError) -> LineItem {
        let fields = try Fields(json, type: "LineItem")
        guard let item = fields.object["item"] else { throw fields.error("item", "missing") }
        return try LineItem(
            product: try product(item),
            quantity: try fields.wholeNumber("quantity", in: 1...Int.max) ?? 1,
            price: try fields.number("price")
        )
    }

    /// A product, with its categories and tags.
    static func product(_ json: JSONValue) throws(ItemError) -> Product {
        let fields = try Fields(json, type: "Product", itemType: .product)
        return try Product(
            id: try fields.required("id"),
            name: try fields.string("name"),
            description: try fields.string("description"),
            url: try fields.url("url"),
            imageUrl: try fields.url("imageUrl"),
            price: try fields.number("price"),
            listPrice: try fields.number("listPrice"),
            currency: try fields.string("currency"),
            inventoryCount: try fields.wholeNumber("inventoryCount", in: 0...Int.max),
            alternateID: try fields.string("alternateId"),
            categories: try fields.array("categories").map { (value) throws(ItemError) in try category(value) },
            tags: try fields.array("tags").map { (value) throws(ItemError) in try tag(value) },
            published: try fields.date("published"),
            expiration: try fields.date("expiration"),
            rating: try fields.number("rating")
        )
    }

    /// A category, with its tags.
    static func category(_ json: JSONValue) throws(ItemError) -> ItemCategory {
        let fields = try Fields(json, type: "Category", itemType: .category)
        return try ItemCategory(
            id: try fields.required("id"),
            isDepartment: try fields.bool("isDepartment") ?? false,
            name: try fields.string("name"),
            description: try fields.string("description"),
            url: try fields.url("url"),
            imageUrl: try fields.url("imageUrl"),
            tags: try fields.array("tags").map { (value) throws(ItemError) in try tag(value) }
        )
    }

    /// A tag.
    static func tag(_ json: JSONValue) throws(ItemError) -> Tag {
        let fields = try Fields(json, type: "Tag", itemType: .tag)
        let typeName = try fields.required("tagType")
        guard let tagType = TagType(rawValue: typeName) else {
            let known = TagType.allCases.map(\.rawValue).joined(separator: ", ")
            throw fields.error("tagType", "unknown tag type \"\(typeName)\"; expected one of \(known)")
        }
        return try Tag(
            id: try fields.required("id"),
            tagType: tagType,
            name: try fields.string("name"),
            description: try fields.string("description"),
            url: try fields.url("url"),
            imageUrl: try fields.url("imageUrl")
        )
    }

    /// The fields of one JSON object, read with errors that name the type and the field.
    private struct Fields {
        let object: [String: JSONValue]
        let type: String

        init(_ json: JSONValue, type: String, itemType: ItemType? = nil) throws(ItemError) {
            guard case .object(let object) = json else {
                throw ItemError(type: type, field: "", message: "expected an object")
            }
            self.object = object
            self.type = type
            if let itemType, object["type"] != .string(itemType.rawValue) {
                throw error("type", "expected \"\(itemType.rawValue)\"")
            }
        }

        func error(_ field: String, _ message: String) -> ItemError {
            ItemError(type: type, field: field, message: message)
        }

        func required(_ key: String) throws(ItemError) -> String {
            guard let text = try string(key) else { throw error(key, "missing") }
            return text
        }

        func string(_ key: String) throws(ItemError) -> String? {
            guard let value = object[key], value != .null else { return nil }
            guard let text = value.stringValue else { throw error(key, "expected a string") }
            return text
        }

        func number(_ key: String) throws(ItemError) -> Double? {
            guard let value = object[key], value != .null else { return nil }
            guard let number = value.numberValue else { throw error(key, "expected a number") }
            return number
        }

        func wholeNumber(_ key: String, in range: ClosedRange<Int>) throws(ItemError) -> Int? {
            guard let number = try number(key) else { return nil }
            guard let whole = JSONNumberPolicy.wholeNumber(number, in: range) else {
                throw error(key, JSONNumberPolicy.wholeNumberProblem(found: number, in: range))
            }
            return whole
        }

        func bool(_ key: String) throws(ItemError) -> Bool? {
            guard let value = object[key], value != .null else { return nil }
            guard let flag = value.boolValue else { throw error(key, "expected true or false") }
            return flag
        }

        func url(_ key: String) throws(ItemError) -> URL? {
            guard let text = try string(key) else { return nil }
            guard let url = URL(string: text) else { throw error(key, "not a URL") }
            return url
        }

        func date(_ key: String) throws(ItemError) -> Date? {
            guard let text = try string(key) else { return nil }
            guard let date = try? Date.ISO8601FormatStyle().parse(text) else {
                throw error(key, "expected an ISO 8601 date")
            }
            return date
        }

        func array(_ key: String) throws(ItemError) -> [JSONValue] {
            guard let value = object[key], value != .null else { return [] }
            guard case .array(let values) = value else { throw error(key, "expected an array") }
            return values
        }
    }
}
