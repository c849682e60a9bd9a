import Foundation

/// A snapshot of what an ``EventUploader`` has done and what it is waiting for.
package struct UploaderStatus: Sendable, Hashable {
    /// Requests handed to the transport.
    var requestsSent = 0
    /// Events the collector acknowledged and the store removed.
    var eventsAcknowledged = 0
    /// Events moved to the dead-letter file.
    var eventsDeadLettered = 0
    /// Retries and pauses scheduled after a failure.
    var retriesScheduled = 0
    /// Batches split in half after a 413.
    var batchesSplit = 0
    /// Batches sent as they were read ahead from a ``FileEventStore`` while the batch before them was in flight.
    var batchesReadAhead = 0
    /// Whether a flush is running now.
    var isFlushing = false
    /// When a pause requested by the collector (429 or 503) ends, on the scheduler's wall clock.
    var pausedUntil: Date?
    /// The scheduler uptime at which the next automatic attempt (a retry or the end of a pause) runs.
    var nextAttemptUptime: Duration?
    /// The last upload result.
    var lastResult: UploadResult?
    /// The last store failure, if the store failed since the last successful flush step.
    var lastStoreError: String?
    /// A configuration error the collector's answers showed, until a batch is acknowledged: a 3xx redirect, which
    /// is never followed. Delivery pauses with backoff while it lasts, and no event is dead-lettered for it.
    var configurationError: String?

    /// Creates an empty status.
    init() {}
}

/// The outcome of one request, as ``EventUploader`` reports it.
package struct UploadResult: Sendable, Hashable {
    /// How many events the request carried.
    package var eventCount: Int
    /// The HTTP status, or `nil` when no response arrived.
    package var statusCode: Int?
    /// The transport failure, when no response arrived.
    package var failure: TransportFailure?
    /// What the uploader decided.
    package var decision: UploadDecision

    /// Creates a result.
    /// - Parameters:
    ///   - eventCount: How many events the request carried.
    ///   - response: What the transport returned.
    ///   - decision: What the uploader decided.
    package init(eventCount: Int, response: TransportResponse, decision: UploadDecision) {
        self.eventCount = eventCount
        switch response {
        case .http(let http):
            statusCode = http.statusCode
            failure = nil
        case .failed(let failure):
            statusCode = nil
            self.failure = failure
        }
        self.decision = decision
    }
}
