/// When an appended event reaches stable storage.
public enum DurabilityMode: Sendable, Hashable {
    /// Every append is written and synced to disk before it returns.
    ///
    /// Nothing that `append` accepted is lost in a process crash, an OS crash or a power cut. The sync goes through
    /// the drive's write cache on every platform: `fdatasync` on Linux, and on Darwin `fcntl(F_FULLFSYNC)`, since
    /// Apple's `fsync` leaves the data in the drive's cache; where a file system refuses `F_FULLFSYNC` (some network,
    /// FUSE and FAT volumes), `fsync` instead, which survives an OS crash but not a power cut before the drive
    /// writes its cache. One append alone costs one disk sync;
    /// appends from several threads share them: those that arrive while a sync is in flight are written and
    /// synced together by the next one, and each returns once that sync has its event on disk. While it waits
    /// for a sync in flight, an append first yields the processor (a bounded number of times, about as long as
    /// a fast sync) so that it returns as soon as the sync ends, and only then sleeps; a lone appender never
    /// waits this way.
    case synced

    /// Appends return once the event is queued in memory; a background writer writes and syncs everything
    /// queued, `interval` (5 ms by default) after the first append that found nothing queued.
    ///
    /// The window is measured from the append, not from a free-running tick: an event is handed to the writer
    /// at most `interval` after its append. It reaches the disk once that write and its sync finish, and later
    /// still when the scheduler runs the writer late (a busy CPU) or a previous write is still syncing. So a
    /// crash loses the events appended in the last `interval` plus the time the writer took to start and sync:
    /// over 40 SIGKILLs of a writer appending without pause on a loaded 2-core Linux machine, the oldest lost
    /// event had been appended a median 4.6 ms and at most 111 ms before the kill
    /// (`GroupCommitLossWindowTests`). No file I/O happens on the appending thread. Call
    /// ``FileEventStore/flush()`` at the points that matter, or use ``synced``, for a hard guarantee.
    case groupCommit(interval: Duration = .milliseconds(5))
}
