import Foundation

/// A typed value for analytics attributes, so that attributes are `Sendable` and encodable, never `Any`.
public enum AnalyticsValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A string.
    case string(String)
    /// An integer.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// A Boolean.
    case bool(Bool)
    /// A date.
    case date(Date)
    /// A list of strings.
    case strings([String])
    /// A value withheld because it is private, such as one wrapped in ``Redacted``; see ``loggable(_:)``.
    ///
    /// Providers that store or send events leave such attributes out; it describes itself as `<redacted>`.
    case redacted

    public var description: String {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): String(value)
        case .date(let value): value.formatted(.iso8601)
        case .strings(let values): values.joined(separator: ",")
        case .redacted: "<redacted>"
        }
    }
}

extension AnalyticsValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
