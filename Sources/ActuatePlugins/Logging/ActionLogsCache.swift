import ActuateCore

/// The logger pairs a ``FocusLogging`` made recently, by everything its loggers know, so that requests that
/// agree on all of it share one pair instead of allocating their own.
///
/// The most recent pair is checked first, without hashing; at most `capacity` pairs are kept, and all are
/// forgotten when a new one would exceed it.
struct ActionLogsCache {
    /// Everything a ``FocusLogger`` pair of one request knows, but the logging it belongs to.
    struct Key: Hashable {
        var feature: ObjectIdentifier
        var action: ObjectIdentifier
        var session: String
        /// The clock, from ``identity(of:)``.
        var clock: Int
        var development: LogLevel
        var production: LogLevel

        /// A number that tells clocks apart, or nil for a clock that cannot be told apart from another of its
        /// type: every `SystemScheduler` reads the same system clock, and a class instance is itself.
        static func identity(of clock: any ActuateScheduler) -> Int? {
            if type(of: clock) == SystemScheduler.self { return 0 }
            guard type(of: clock) is AnyObject.Type else { return nil }
            return Int(bitPattern: ObjectIdentifier(clock as AnyObject))
        }
    }

    /// The most pairs kept.
    static let capacity = 256

    /// A kept pair and its key; a class, so that checking the most recent one copies nothing.
    private final class Entry {
        let key: Key
        let logs: ActionLogs

        init(key: Key, logs: ActionLogs) {
            self.key = key
            self.logs = logs
        }
    }

    private var last: Entry?
    private var byKey: [Key: Entry] = [:]

    /// The pair made for `key`, if it is kept.
    mutating func logs(for key: Key) -> ActionLogs? {
        if let last, last.key == key { return last.logs }
        guard let entry = byKey[key] else { return nil }
        last = entry
        return entry.logs
    }

    /// Keeps `logs` for `key`.
    mutating func insert(_ logs: ActionLogs, for key: Key) {
        if byKey.count >= Self.capacity { byKey.removeAll() }
        let entry = Entry(key: key, logs: logs)
        byKey[key] = entry
        last = entry
    }
}
