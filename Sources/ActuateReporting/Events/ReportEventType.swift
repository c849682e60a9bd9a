/// The type of a ``ReportEvent``: a content status, a session boundary, a purchase, or an app-defined name.
///
/// The known types are static members, so call sites read like an enumeration while apps can still add their
/// own names:
///
/// ```swift
/// reporter.record(type: .purchase, properties: EventProperties.purchase(productIDs: ["sku-1"]))
/// reporter.record(type: "newsletter_signup")
/// ```
public struct ReportEventType: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The wire name of the type.
    public var rawValue: String

    /// Creates a type from its wire name.
    /// - Parameter rawValue: The wire name, for example `session_start`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a type from its wire name.
    /// - Parameter rawValue: The wire name, for example `newsletter_signup`.
    package init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates the type that events with a content status are recorded under.
    /// - Parameter status: The content status.
    package init(_ status: ContentStatus) {
        self.rawValue = status.rawValue
    }

    /// Creates a type from a string literal.
    /// - Parameter value: The wire name.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The wire name.
    public var description: String { rawValue }

    /// The content status this type stands for, or nil when it is not a content status.
    package var contentStatus: ContentStatus? { ContentStatus(rawValue: rawValue) }

    /// Whether the reporter manages events of this type itself (session boundaries), so apps cannot record them.
    package var isReserved: Bool { self == .sessionStart || self == .sessionEnd }

    /// Content was shown (``ContentStatus/executed``).
    public static let executed = ReportEventType(.executed)
    /// The content's main target was clicked (``ContentStatus/target``).
    package static let target = ReportEventType(.target)
    /// The content was closed (``ContentStatus/close``).
    package static let close = ReportEventType(.close)
    /// A product in the content was clicked (``ContentStatus/product``).
    package static let product = ReportEventType(.product)
    /// An article in the content was clicked (``ContentStatus/article``).
    package static let article = ReportEventType(.article)
    /// Presenting the content failed (``ContentStatus/error``).
    package static let error = ReportEventType(.error)
    /// A reporting session started.
    package static let sessionStart = ReportEventType("session_start")
    /// A reporting session ended; the event carries its duration in seconds.
    package static let sessionEnd = ReportEventType("session_end")
    /// Products were bought; the event carries their ids, for product-click contribution.
    public static let purchase = ReportEventType("purchase")
    /// The user was identified; the event's properties are the user's traits. The Segment encoding sends it as
    /// an `identify` message (see ``EventBatchEncoding/segment``).
    public static let identify = ReportEventType("identify")
}
