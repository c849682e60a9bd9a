/// The severity of a log event.
public enum LogLevel: Int, Sendable, Hashable, Codable, Comparable, CaseIterable, CustomStringConvertible {
    /// Detail for debugging.
    case debug = 0
    /// Normal progress.
    case info = 1
    /// Something unexpected that the action recovered from.
    case warning = 2
    /// A failure.
    case error = 3

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }
}

/// A logger bound to one request: it knows the feature, action and session it logs for.
public protocol ContextualLogger: Sendable {
    /// Whether events at `level` are written at all, so that callers can skip building expensive messages.
    func isEnabled(_ level: LogLevel) -> Bool

    /// Writes `message` at `level`.
    func log(_ level: LogLevel, _ message: String)
}

extension ContextualLogger {
    /// Writes a debug message, building it only when debug logging is enabled.
    public func debug(_ message: @autoclosure () -> String) {
        if isEnabled(.debug) { log(.debug, message()) }
    }

    /// Writes an informational message, building it only when info logging is enabled.
    public func info(_ message: @autoclosure () -> String) {
        if isEnabled(.info) { log(.info, message()) }
    }

    /// Writes a warning, building it only when warnings are enabled.
    public func warning(_ message: @autoclosure () -> String) {
        if isEnabled(.warning) { log(.warning, message()) }
    }

    /// Writes an error, building it only when errors are enabled.
    public func error(_ message: @autoclosure () -> String) {
        if isEnabled(.error) { log(.error, message()) }
    }
}

/// A logger that writes nothing.
struct DisabledLogger: ContextualLogger {
    /// Creates the logger.
    init() {}
    func isEnabled(_ level: LogLevel) -> Bool { false }
    func log(_ level: LogLevel, _ message: String) {}
}

/// The development and production loggers of one request.
///
/// A class, so that passing it along with every request costs one reference count, not two existential copies.
public final class ActionLogs: Sendable {
    /// Verbose logging for development builds.
    public let development: any ContextualLogger
    /// Logging that stays on in production.
    public let production: any ContextualLogger

    /// Creates the pair.
    public init(development: any ContextualLogger, production: any ContextualLogger) {
        self.development = development
        self.production = production
    }

    /// Loggers that write nothing, used when no logging is installed.
    @usableFromInline package static let disabled = ActionLogs(
        development: DisabledLogger(),
        production: DisabledLogger()
    )
}
