/// When an appended event reaches stable storage.
public enum DurabilityMode: Sendable, Hashable {
    /// Every append is written and synced to disk before it returns.
    ///
    /// Nothing that `append` accepted is lost in a crash or power failure; each append costs one disk sync.
    case synced

    /// Appends return once the event is queued in memory; a background writer writes and syncs everything
    /// queued every `interval` (5 ms by default).
    ///
    /// A crash loses at most the events appended during the last interval. No file I/O happens on the
    /// appending thread. ``FileEventStore/flush()`` forces the write.
    case groupCommit(interval: Duration = .milliseconds(5))
}
