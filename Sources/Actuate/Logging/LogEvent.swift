import Foundation

/// One message written through a request's contextual logger.
public struct LogEvent: Sendable, Hashable, Codable {
    /// When it was written, on the clock of the dispatcher that performed the action, to the microsecond.
    public var date: Date
    /// Its severity.
    public var level: LogLevel
    /// Whether it was written to the development or the production logger.
    public var channel: LogChannel
    /// The identifier of the feature whose action wrote it.
    public var featurePath: FeaturePath
    /// The display name of the action that wrote it.
    public var actionName: String
    /// The session the action ran in.
    public var sessionName: String
    /// The message.
    public var message: String

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - date: When it was written.
    ///   - level: Its severity.
    ///   - channel: The logger it was written to.
    ///   - featurePath: The feature's identifier.
    ///   - actionName: The action's display name.
    ///   - sessionName: The session's name.
    ///   - message: The message.
    public init(
        date: Date,
        level: LogLevel,
        channel: LogChannel,
        featurePath: FeaturePath,
        actionName: String,
        sessionName: String,
        message: String
    ) {
        self.date = date
        self.level = level
        self.channel = channel
        self.featurePath = featurePath
        self.actionName = actionName
        self.sessionName = sessionName
        self.message = message
    }

    /// The event as one line: date, level, channel, feature, action, session and message.
    public var formatted: String {
        "\(date.formatted(.iso8601)) [\(level)] [\(channel)] \(featurePath) › \(actionName) "
            + "[\(sessionName)]: \(message)"
    }
}

/// The two loggers of each request.
public enum LogChannel: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// ``ActionLogs/development``: verbose logging for development.
    case development
    /// ``ActionLogs/production``: logging that stays on in production.
    case production

    public var description: String { rawValue }
}
