import Foundation

/// A snapshot of what an ``EventUploader`` has done and what it is waiting for, read with
/// ``EventUploader/status``: what an app's delivery-health screen or a test of its delivery shows.
///
/// ```swift
/// let status = uploader.status
/// print("\(status.eventsAcknowledged) delivered, \(status.eventsPending ?? 0) waiting")
/// if let problem = status.configurationError {
///     print("delivery is paused until the collector is fixed: \(problem)")
/// } else if let error = status.lastError {
///     print("the last attempt failed: \(error)")
/// }
/// ```
public struct UploaderStatus: Sendable, Hashable {
    /// Requests handed to the transport.
    public internal(set) var requestsSent = 0
    /// Events the collector acknowledged and the store removed.
    public internal(set) var eventsAcknowledged = 0
    /// Events moved to the dead-letter file.
    public internal(set) var eventsDeadLettered = 0
    /// Events in the store, waiting for the collector's acknowledgement, when the status was read; nil when the
    /// store could not count them.
    public internal(set) var eventsPending: Int?
    /// Retries and pauses scheduled after a failure.
    public internal(set) var retriesScheduled = 0
    /// Batches split in half after a 413.
    public internal(set) var batchesSplit = 0
    /// Batches sent as they were read ahead from a ``FileEventStore`` while the batch before them was in flight.
    public internal(set) var batchesReadAhead = 0
    /// Whether a flush is running now.
    public internal(set) var isFlushing = false
    /// When a pause requested by the collector (429 or 503) ends, on the scheduler's wall clock.
    public internal(set) var pausedUntil: Date?
    /// The scheduler uptime at which the next automatic attempt (a retry or the end of a pause) runs; nil when
    /// none is scheduled.
    public internal(set) var nextAttemptUptime: Duration?
    /// The last upload result.
    package internal(set) var lastResult: UploadResult?
    /// The last store failure, if the store failed since the last successful flush step.
    public internal(set) var lastStoreError: String?
    /// A configuration error the collector's answers showed, until a batch is acknowledged: a 3xx redirect, which
    /// is never followed. Delivery pauses with backoff while it lasts, and no event is dead-lettered for it.
    public internal(set) var configurationError: String?

    /// Whether delivery is paused for a ``configurationError``, which only a change to the collector or its
    /// endpoint ends.
    public var isPausedForConfigurationError: Bool { configurationError != nil }

    /// What went wrong last, in words, or nil when the last attempt succeeded (or none was made): the
    /// ``configurationError``, else the ``lastStoreError``, else why the last request was not acknowledged
    /// (retried, paused for, split or dead-lettered).
    public var lastError: String? {
        if let configurationError { return configurationError }
        if let lastStoreError { return lastStoreError }
        guard let lastResult else { return nil }
        switch lastResult.decision {
        case .acknowledge: return nil
        case .deadLetter(_, let reason), .retry(_, let reason), .pause(_, let reason): return reason
        case .split: return "the collector refused the batch as too large (HTTP 413); it was split in two"
        }
    }

    /// Creates an empty status.
    init() {}
}
