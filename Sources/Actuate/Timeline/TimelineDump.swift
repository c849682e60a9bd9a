/// The entries a `Timeline` held at one moment, with its capacity: the `timeline` section of a debug report
/// in format 1.
public struct TimelineDump: Sendable, Hashable, Codable {
    /// The most entries the timeline kept.
    public var maxEntries: Int
    /// The entries, oldest first.
    public var entries: [TimelineEntry]

    /// Creates a dump.
    ///
    /// - Parameters:
    ///   - maxEntries: The most entries the timeline kept.
    ///   - entries: The entries, oldest first.
    public init(maxEntries: Int, entries: [TimelineEntry]) {
        self.maxEntries = maxEntries
        self.entries = entries
    }
}
