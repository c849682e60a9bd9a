import Foundation

/// A backend that writes each event as one line to standard output, or to standard error from a level up.
public struct PrintLogBackend: LogBackend {
    /// The lowest level written to standard error instead of standard output.
    let standardErrorLevel: LogLevel

    /// Creates the backend.
    ///
    /// - Parameter standardErrorLevel: The lowest level written to standard error; `.warning` by default.
    public init(standardErrorLevel: LogLevel = .warning) {
        self.standardErrorLevel = standardErrorLevel
    }

    public func write(_ event: LogEvent) {
        let handle = event.level >= standardErrorLevel ? FileHandle.standardError : FileHandle.standardOutput
        handle.write(Data((event.formatted + "\n").utf8))
    }
}
