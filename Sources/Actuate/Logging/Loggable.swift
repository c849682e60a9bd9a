import Foundation

/// A value that can describe itself for logs, the timeline and debug reports.
///
/// Action inputs are `Loggable`, so that the timeline can show what each action was given. A type that holds
/// private data redacts itself by returning a description without it:
///
/// ```swift
/// struct Credentials: Loggable {
///     var user: String
///     var password: String
///     var loggingDescription: String { "user \(user), password <redacted>" }
/// }
/// ```
public protocol Loggable: Sendable {
    /// A short description of the value, safe to write to logs.
    var loggingDescription: String { get }
}

/// The input of an action that takes none.
public struct NoInput: Loggable, Hashable, Codable {
    /// The one value of `NoInput`.
    public static let noInput = NoInput()

    /// Creates the empty input. Prefer ``noInput``.
    package init() {}

    public var loggingDescription: String { "none" }
}

/// The presenter of an action that drives no UI.
public typealias NoPresenter = Void

extension String: Loggable {
    public var loggingDescription: String { self }
}

extension Int: Loggable {
    public var loggingDescription: String { String(self) }
}

extension Double: Loggable {
    public var loggingDescription: String { String(self) }
}

extension Bool: Loggable {
    public var loggingDescription: String { self ? "true" : "false" }
}

extension URL: Loggable {
    public var loggingDescription: String { absoluteString }
}

extension UUID: Loggable {
    public var loggingDescription: String { uuidString }
}

extension Optional: Loggable where Wrapped: Loggable {
    public var loggingDescription: String {
        switch self {
        case .some(let value): value.loggingDescription
        case .none: "nil"
        }
    }
}

/// A wrapper that keeps a value out of every log, timeline and analytics description.
///
/// Every way of describing it gives `<redacted>`: ``loggingDescription``, `description` (so string
/// interpolation), `debugDescription`, and its mirror (so `dump` and the description of a type that holds it,
/// such as an error that is not ``Loggable``). Only ``value`` gives the value.
///
/// ```swift
/// struct SignInInput: Loggable {
///     var email: String
///     var password: Redacted<String>
///     var loggingDescription: String { "\(email), \(password.loggingDescription)" }
/// }
/// ```
public struct Redacted<Value: Sendable>: Loggable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The wrapped value, for the action's own use.
    public var value: Value

    /// Wraps `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Always `<redacted>`.
    public var loggingDescription: String { "<redacted>" }

    /// `<redacted>`, so that interpolating the wrapper never shows the value.
    public var description: String { "<redacted>" }

    /// `<redacted>`, so that debug descriptions of values holding the wrapper never show the value.
    public var debugDescription: String { "<redacted>" }

    /// A mirror with no children, so that `dump` and reflection never reach the value.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
