import ActuateReporting

/// A content status together with the argument it carries, as one typed value.
///
/// ```swift
/// reporter.record(.close(dontShowSessions: 2), for: .contentAction(id: 7, name: "Banner"))
/// ```
public enum ContentEvent: Sendable, Hashable {
    /// The content was shown.
    case executed
    /// The content's main target was clicked, following `href` if there is one.
    case target(href: String? = nil)
    /// The content was closed; it should not be shown for `dontShowSessions` sessions (negatives become 0).
    case close(dontShowSessions: Int = 0)
    /// A product inside the content was clicked.
    case product(productID: String)
    /// An article inside the content was clicked.
    case article(articleID: String)
    /// Presenting the content failed.
    case error(message: String)

    /// Builds the event from a status and its string argument, the form the HTML bridge and
    /// ``ActionClicked`` use.
    ///
    /// For `close` the argument is the number of sessions not to show (empty means 0, negatives become 0); for
    /// `product` and `article` it is the id; for `error` it is the message; for `target` it is the link.
    /// - Parameters:
    ///   - status: The status.
    ///   - argument: The status's argument.
    /// - Throws: `ReportingError.invalidContentArgument(status:argument:reason:)` when `close` gets a
    ///   non-integer, or `product` or `article` an empty id.
    package init(status: ContentStatus, argument: String) throws(ReportingError) {
        let trimmed = argument.trimmingWhitespace()
        switch status {
        case .executed:
            self = .executed
        case .target:
            self = .target(href: trimmed.isEmpty ? nil : trimmed)
        case .close:
            if trimmed.isEmpty {
                self = .close(dontShowSessions: 0)
            } else if let sessions = Int(trimmed) {
                self = .close(dontShowSessions: sessions)
            } else {
                throw .invalidContentArgument(status: status, argument: argument, reason: "not a whole number")
            }
        case .product:
            guard !trimmed.isEmpty else {
                throw .invalidContentArgument(status: status, argument: argument, reason: "the product id is empty")
            }
            self = .product(productID: trimmed)
        case .article:
            guard !trimmed.isEmpty else {
                throw .invalidContentArgument(status: status, argument: argument, reason: "the article id is empty")
            }
            self = .article(articleID: trimmed)
        case .error:
            self = .error(message: argument)
        }
    }

    /// The status this event reports.
    package var status: ContentStatus {
        switch self {
        case .executed: .executed
        case .target: .target
        case .close: .close
        case .product: .product
        case .article: .article
        case .error: .error
        }
    }

    /// The properties that carry this event's argument; `close` clamps negative session counts to 0.
    package var properties: [String: JSONValue] {
        switch self {
        case .executed:
            return [:]
        case .target(let href):
            return href.map { [ReportEventKey.href: .string($0)] } ?? [:]
        case .close(let sessions):
            return [ReportEventKey.dontShowSessions: .number(Double(max(0, sessions)))]
        case .product(let productID):
            return [ReportEventKey.productID: .string(productID)]
        case .article(let articleID):
            return [ReportEventKey.articleID: .string(articleID)]
        case .error(let message):
            return [ReportEventKey.message: .string(message)]
        }
    }
}

/// The property keys content events add to those of the reporting pipeline.
extension ReportEventKey {
    /// The link a `target` click followed.
    package static let href = "href"
    /// For `article`: the clicked article's id.
    package static let articleID = "articleId"
    /// For `close`: the number of sessions not to show the content again (never negative).
    package static let dontShowSessions = "dontShowSessions"
}
