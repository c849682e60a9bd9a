/// What ``EventUploader`` decided to do after one request, as ``UploadResult`` reports it.
public enum UploadDecision: Sendable, Hashable {
    /// Remove these events from the store, then continue with the next batch.
    case acknowledge(Set<ReportEvent.ID>)
    /// Move these events to the dead-letter file with this reason, then continue with the next batch.
    case deadLetter(Set<ReportEvent.ID>, reason: String)
    /// The batch was split in two; the first half is sent next.
    case split
    /// Stop this flush and send the same batch again after `delay`.
    case retry(after: Duration, reason: String)
    /// Stop this flush and pause the whole pipeline for `delay`, as the collector asked.
    case pause(for: Duration, reason: String)
}
