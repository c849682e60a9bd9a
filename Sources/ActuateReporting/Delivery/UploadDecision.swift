/// What ``EventUploader`` decided to do after one request, as ``UploadResult`` reports it.
package enum UploadDecision: Sendable, Hashable {
    /// Remove these events from the store, then continue with the next batch.
    case acknowledge(Set<ReportEvent.ID>)
    /// Move these events to the dead-letter file with this reason, then continue with the next batch.
    case deadLetter(Set<ReportEvent.ID>, reason: String)
    /// The batch was split in two (after a 413); the first half is sent after `delay`, a backoff that grows with
    /// each consecutive failure, so a collector that answers 413 to everything gets a few requests, not a storm.
    case split(after: Duration)
    /// Stop this flush and send the same batch again after `delay`.
    case retry(after: Duration, reason: String)
    /// Stop this flush and pause the whole pipeline for `delay`, as the collector asked (429, 503), or because the
    /// collector's answer shows a configuration error (a 3xx redirect, which is never followed): nothing is
    /// dead-lettered, and the same batch is sent again after the pause.
    case pause(for: Duration, reason: String)
}
