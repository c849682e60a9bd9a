/// A click inside shown content, as the HTML bridge reports it: which action, what kind of click, the link
/// and the click's argument.
///
/// ```swift
/// action.render(on: surface) { clicked in
///     switch clicked.status {
///     case .close: hideBanner()
///     case .product: openProduct(clicked.arg)
///     case .article: openArticle(clicked.arg)
///     case .target: if let url = URL(string: clicked.href) { open(url) }
///     }
/// }
/// ```
public struct ActionClicked: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What kind of click it was.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// The content's main target (a link, or an element marked `data-actuate-target`).
        case target
        /// A close button (`data-actuate-close`); ``ActionClicked/arg`` is the number of sessions not to show
        /// the content.
        case close
        /// A product (`data-actuate-product`); ``ActionClicked/arg`` is its id.
        case product
        /// An article (`data-actuate-article`); ``ActionClicked/arg`` is its id.
        case article
    }

    /// The id of the content action clicked.
    public var actionID: Int
    /// The link followed, or an empty string when there is none or its scheme is not allowed.
    public var href: String
    /// What kind of click it was.
    public var status: Status
    /// For `close`, the number of sessions not to show the content; for `product` and `article`, the id; for
    /// `target`, the value of `data-actuate-target`, if any.
    public var arg: String

    /// Creates a click.
    /// - Parameters:
    ///   - actionID: The id of the content action clicked.
    ///   - href: The link followed, or empty.
    ///   - status: What kind of click it was.
    ///   - arg: The click's argument.
    public init(actionID: Int, href: String = "", status: Status, arg: String = "") {
        self.actionID = actionID
        self.href = href
        self.status = status
        self.arg = arg
    }

    /// `clicked action:<id> <status> arg=<arg> href=<href>`.
    public var description: String {
        "clicked action:\(actionID) \(status.rawValue) arg=\(arg) href=\(href)"
    }

    private enum CodingKeys: String, CodingKey {
        case actionID = "actionId"
        case href
        case status
        case arg
    }
}
