/// Events fetched from a ``FileEventStore`` with their JSON and their places in the journal.
struct MeasuredBatch: Sendable {
    /// The events, oldest first.
    var events: [ReportEvent]
    /// The events as ``EventBatchEncoding/actuate`` writes them in a batch's `batch` array, comma separated; nil
    /// when they were not measured.
    var elements: [UInt8]?
    /// The journal sequence number of each event, in the same order.
    var sequences: [UInt64]
}
