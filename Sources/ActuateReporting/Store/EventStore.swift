import Foundation

/// Durable storage for events between recording and acknowledged upload.
///
/// An event enters with ``append(_:)`` and leaves only through ``remove(ids:)``, which the uploader calls
/// after the collector has acknowledged it, or through ``moveToDeadLetter(ids:reason:)``, which keeps it
/// where statistics and tools can still show it. ``fetch(count:maxBytes:)`` never removes anything.
public protocol EventStore: Sendable {
    /// Stores an event.
    ///
    /// When this returns, the event is as durable as the store's durability mode promises.
    /// - Throws: ``EventStoreError`` when the event cannot be stored.
    func append(_ event: ReportEvent) throws

    /// The oldest stored events, without removing them.
    ///
    /// Events are measured exactly as ``EventBatch/encoded(as:)`` writes them in Actuate's own encoding, each
    /// with one byte for the comma that separates it from the next; so a batch of the returned events has a body of
    /// at most `maxBytes` plus the fixed envelope around the events, less one.
    /// - Parameters:
    ///   - count: The most events to return.
    ///   - maxBytes: The most bytes the events may take, measured as above. At least one event is returned if
    ///     any is stored, even if it alone is larger.
    /// - Returns: Events, oldest first.
    func fetch(count: Int, maxBytes: Int) throws -> [ReportEvent]

    /// Removes events, after the collector has acknowledged them. Unknown ids are ignored.
    func remove(ids: Set<ReportEvent.ID>) throws

    /// Moves events that the collector will never accept out of the queue and into the dead-letter file.
    ///
    /// - Parameters:
    ///   - ids: The events to move. Unknown ids are ignored.
    ///   - reason: Why they were given up, for example `HTTP 400 after 3 tries`.
    func moveToDeadLetter(ids: Set<ReportEvent.ID>, reason: String) throws

    /// Every event that was moved to the dead-letter file, oldest first.
    func deadLetters() throws -> [DeadLetter]

    /// The number of events stored and not yet removed or dead-lettered.
    func count() throws -> Int

    /// The number of events dropped since the store was opened because the store was over its size cap.
    var droppedEventCount: Int { get }
}

/// An event that delivery gave up on, with the reason.
public struct DeadLetter: Sendable, Hashable, Codable {
    /// The event as it was recorded.
    public var event: ReportEvent
    /// Why it was given up.
    public var reason: String

    /// Creates a dead letter.
    package init(event: ReportEvent, reason: String) {
        self.event = event
        self.reason = reason
    }
}
