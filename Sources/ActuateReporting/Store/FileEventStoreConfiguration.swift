import Actuate

/// How a ``FileEventStore`` writes, how large its files may grow, and which scheduler runs its writer.
public struct FileEventStoreConfiguration: Sendable {
    /// When appended events reach stable storage; group commit every 5 ms by default.
    var durability: DurabilityMode
    /// The most bytes in one segment file; 1 MiB by default. An event must fit in one segment.
    var segmentSize: Int
    /// The most bytes all segment files together may hold; 64 MiB by default. Beyond it the oldest segment
    /// is deleted and its events are counted in ``FileEventStore/droppedEventCount``.
    var maxTotalBytes: Int
    /// The most bytes the dead-letter file may hold; 4 MiB by default. Beyond it the oldest letters are dropped
    /// (the file is rewritten down to three quarters of the cap) and counted in
    /// ``FileEventStore/droppedDeadLetterCount``. The newest letter is always kept.
    var maxDeadLetterBytes: Int
    /// The scheduler that runs the group-commit writer.
    package var scheduler: any ActuateScheduler

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - durability: When appended events reach stable storage.
    ///   - segmentSize: The most bytes in one segment file, at least 4 KiB. On Linux a new segment reserves this
    ///     much disk space when it is created, while its size grows only as events are written, so that syncing
    ///     an append allocates no blocks.
    ///   - maxTotalBytes: The most bytes in all segment files, at least twice `segmentSize`. Disk use can exceed
    ///     it by the unwritten part of the newest segment's reservation, less than one `segmentSize`.
    ///   - maxDeadLetterBytes: The most bytes in the dead-letter file, at least 4 KiB.
    ///   - scheduler: The scheduler that runs the group-commit writer.
    public init(
        durability: DurabilityMode = .groupCommit(),
        segmentSize: Int = 1 << 20,
        maxTotalBytes: Int = 64 << 20,
        maxDeadLetterBytes: Int = 4 << 20,
        scheduler: any ActuateScheduler = SystemScheduler.shared
    ) {
        self.durability = durability
        self.segmentSize = segmentSize
        self.maxTotalBytes = maxTotalBytes
        self.maxDeadLetterBytes = maxDeadLetterBytes
        self.scheduler = scheduler
    }

    /// Throws when the values cannot work together.
    func validate() throws {
        guard segmentSize >= 4096, segmentSize <= Int(Int32.max) else {
            throw EventStoreError.invalidConfiguration(reason: "segmentSize must be between 4 KiB and 2 GiB")
        }
        guard maxTotalBytes >= 2 * segmentSize else {
            throw EventStoreError.invalidConfiguration(reason: "maxTotalBytes must be at least twice segmentSize")
        }
        guard maxDeadLetterBytes >= 4096 else {
            throw EventStoreError.invalidConfiguration(reason: "maxDeadLetterBytes must be at least 4 KiB")
        }
        if case .groupCommit(let interval) = durability, interval <= .zero {
            throw EventStoreError.invalidConfiguration(reason: "the group-commit interval must be positive")
        }
    }
}
