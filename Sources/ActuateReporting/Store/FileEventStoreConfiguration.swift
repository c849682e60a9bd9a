import Actuate

/// How a ``FileEventStore`` writes, how large its files may grow, and which scheduler runs its writer.
public struct FileEventStoreConfiguration: Sendable {
    /// When appended events reach stable storage; group commit every 5 ms by default.
    public var durability: DurabilityMode
    /// The most bytes in one segment file; 1 MiB by default. An event must fit in one segment.
    public var segmentSize: Int
    /// The most bytes all segment files together may hold; 64 MiB by default. Beyond it the oldest segment
    /// is deleted and its events are counted in ``FileEventStore/droppedEventCount``.
    public var maxTotalBytes: Int
    /// The scheduler that runs the group-commit writer.
    public var scheduler: any ActuateScheduler

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - durability: When appended events reach stable storage.
    ///   - segmentSize: The most bytes in one segment file, at least 4 KiB.
    ///   - maxTotalBytes: The most bytes in all segment files, at least twice `segmentSize`.
    ///   - scheduler: The scheduler that runs the group-commit writer.
    public init(
        durability: DurabilityMode = .groupCommit(),
        segmentSize: Int = 1 << 20,
        maxTotalBytes: Int = 64 << 20,
        scheduler: any ActuateScheduler = SystemScheduler.shared
    ) {
        self.durability = durability
        self.segmentSize = segmentSize
        self.maxTotalBytes = maxTotalBytes
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
        if case .groupCommit(let interval) = durability, interval <= .zero {
            throw EventStoreError.invalidConfiguration(reason: "the group-commit interval must be positive")
        }
    }
}
