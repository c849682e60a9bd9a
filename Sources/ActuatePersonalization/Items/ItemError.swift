import Foundation

/// A value that cannot describe an item, a line item, an order or a review, with the field and the reason.
///
/// Items are checked when they are created, so a tracking call never reports an empty id, a negative
/// quantity or a rating out of range:
///
/// ```swift
/// do {
///     _ = try Review(rating: 120)
/// } catch {
///     print(error)   // Review.rating: must be from 1 to 100, found 120
/// }
/// ```
public struct ItemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of value, for example `Product` or `LineItem`.
    package var type: String
    /// The field that is wrong, for example `id` or `quantity`.
    package var field: String
    /// What is wrong, in words a person can act on.
    package var message: String

    /// Creates an error.
    /// - Parameters:
    ///   - type: The kind of value.
    ///   - field: The field that is wrong.
    ///   - message: What is wrong.
    init(type: String, field: String, message: String) {
        self.type = type
        self.field = field
        self.message = message
    }

    /// `Type.field: message`.
    public var description: String { "\(type).\(field): \(message)" }
}

/// The checks that item initializers share.
enum ItemCheck {
    /// `value` with surrounding whitespace removed, or an error when nothing is left.
    static func identifier(_ value: String, type: String, field: String = "id") throws(ItemError) -> String {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw ItemError(type: type, field: field, message: "must not be empty")
        }
        return trimmed
    }

    /// `value` when it is nil or a finite number of at least zero.
    static func amount(_ value: Double?, type: String, field: String) throws(ItemError) -> Double? {
        guard let value else { return nil }
        guard value.isFinite, value >= 0 else {
            throw ItemError(type: type, field: field, message: "must be a finite number of at least 0, found \(value)")
        }
        return value
    }

    /// `value` when it is nil or a currency code of three capital letters, such as `EUR`.
    static func currency(_ value: String?, type: String) throws(ItemError) -> String? {
        guard let value else { return nil }
        let isCode =
            value.utf8.count == 3 && value.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
        guard isCode else {
            throw ItemError(
                type: type,
                field: "currency",
                message: "must be an ISO 4217 code of three capital letters such as EUR, found \"\(value)\""
            )
        }
        return value
    }
}
