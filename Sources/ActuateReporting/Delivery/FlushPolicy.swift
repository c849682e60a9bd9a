/// When ``EventUploader`` flushes on its own.
///
/// An uploader takes a list of policies and flushes when any of them says so; ``EventUploader/flushNow()`` and
/// ``EventUploader/applicationDidEnterBackground()`` always flush. By default it flushes
/// every 20 appended events and every 30 seconds.
///
/// ```swift
/// let configuration = EventUploader.Configuration(flushPolicies: [.count(50), .interval(.seconds(60))])
/// ```
public enum FlushPolicy: Sendable, Hashable {
    /// Flush once this many events have been appended since the last flush started. Values below 1 mean 1.
    case count(Int)
    /// Flush on this period of the uploader's scheduler. Periods below one second mean one second.
    case interval(Duration)
    /// Never flush on its own: only ``EventUploader/flushNow()`` and background entry flush.
    case manual

    /// Every 20 events and every 30 seconds.
    @usableFromInline package static let defaults: [FlushPolicy] = [.count(20), .interval(.seconds(30))]
}
