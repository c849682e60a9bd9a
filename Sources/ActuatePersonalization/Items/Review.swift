import ActuateReporting

/// The details of a review: a rating from 1 to 100, a text, and whether the reviewer is verified.
///
/// ```swift
/// screen.review(shoes, details: try Review(rating: 80, text: "Comfortable from day one"))
/// ```
public struct Review: Sendable, Hashable {
    /// The lowest rating.
    package static let minimumRating = 1
    /// The highest rating.
    package static let maximumRating = 100

    /// The rating, from 1 to 100.
    let rating: Int?
    /// What the reviewer wrote.
    var text: String?
    /// Whether the reviewer is known to have bought the item.
    var isVerified: Bool?

    /// Creates review details.
    /// - Parameters:
    ///   - rating: The rating, from 1 to 100.
    ///   - text: What the reviewer wrote.
    ///   - isVerified: Whether the reviewer is known to have bought the item.
    /// - Throws: ``ItemError`` when `rating` is outside 1 to 100.
    public init(rating: Int? = nil, text: String? = nil, isVerified: Bool? = nil) throws(ItemError) {
        if let rating, !(Self.minimumRating...Self.maximumRating).contains(rating) {
            throw ItemError(
                type: "Review",
                field: "rating",
                message: "must be from \(Self.minimumRating) to \(Self.maximumRating), found \(rating)"
            )
        }
        self.rating = rating
        self.text = text
        self.isVerified = isVerified
    }

    /// The review as events carry it.
    package var jsonValue: JSONValue {
        var object: [String: JSONValue] = [:]
        if let rating { object["rating"] = .number(Double(rating)) }
        if let text { object["text"] = .string(text) }
        if let isVerified { object["isVerified"] = .bool(isVerified) }
        return .object(object)
    }
}
