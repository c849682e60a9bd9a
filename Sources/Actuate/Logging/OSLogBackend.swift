#if canImport(os)
import os

/// A backend that writes to the unified logging system with `os.Logger`, one category per feature path.
///
/// Levels map to `.debug`, `.info`, `.default` (warnings) and `.error`. Messages are built from
/// ``Loggable/loggingDescription``s; they are still logged as private unless `publicMessages` is `true`.
public struct OSLogBackend: LogBackend {
    /// The subsystem, usually the bundle identifier.
    public let subsystem: String
    /// Whether messages are logged as public.
    public let publicMessages: Bool

    /// Creates the backend.
    ///
    /// - Parameters:
    ///   - subsystem: The subsystem, usually the bundle identifier.
    ///   - publicMessages: Whether messages are logged as public; `false` by default.
    public init(subsystem: String, publicMessages: Bool = false) {
        self.subsystem = subsystem
        self.publicMessages = publicMessages
    }

    public func write(_ event: LogEvent) {
        let logger = Logger(subsystem: subsystem, category: event.featurePath.description)
        let type: OSLogType =
            switch event.level {
            case .debug: .debug
            case .info: .info
            case .warning: .default
            case .error: .error
            }
        let context = "\(event.actionName) [\(event.sessionName)] (\(event.channel))"
        if publicMessages {
            logger.log(level: type, "\(context, privacy: .public): \(event.message, privacy: .public)")
        } else {
            logger.log(level: type, "\(context, privacy: .public): \(event.message, privacy: .private)")
        }
    }
}
#endif
