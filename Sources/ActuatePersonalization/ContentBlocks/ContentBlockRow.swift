import Foundation

/// A placeholder in one row of a table or list: the placeholder id and the row, by index path or by the
/// row's own id.
public struct ContentBlockRow: Sendable, Hashable, CustomStringConvertible {
    /// The placeholder id.
    public var placeholderID: String
    /// The row: its id, or `section-item` for an index path.
    public var rowID: String

    /// Creates a row by the row's own id, which stays right when rows move.
    /// - Parameters:
    ///   - placeholderID: The placeholder id.
    ///   - rowID: The row's id.
    public init(placeholderID: String, rowID: String) {
        self.placeholderID = placeholderID
        self.rowID = rowID
    }

    /// Creates a row by index path.
    /// - Parameters:
    ///   - placeholderID: The placeholder id.
    ///   - indexPath: The row's index path (section, then item).
    public init(placeholderID: String, indexPath: IndexPath) {
        self.placeholderID = placeholderID
        self.rowID = indexPath.map(String.init).joined(separator: "-")
    }

    /// `placeholderId@rowId`.
    public var description: String { "\(placeholderID)@\(rowID)" }
}

/// What a row's placeholder shows: the block and its measured size.
public struct ContentBlockUsage: Sendable, Hashable {
    /// The block shown.
    public var contentBlock: ContentBlock
    /// Its measured size, when the surface could measure it; use its height for the row's height.
    public var size: HTMLContentSize?

    /// Creates a usage.
    /// - Parameters:
    ///   - contentBlock: The block shown.
    ///   - size: Its measured size.
    init(contentBlock: ContentBlock, size: HTMLContentSize?) {
        self.contentBlock = contentBlock
        self.size = size
    }
}
