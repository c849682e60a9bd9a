/// What a ``FileEventStore`` found when it opened its directory.
public struct JournalRecoveryReport: Sendable, Hashable {
    /// The segment files read.
    public var segmentsScanned = 0
    /// The events still queued after recovery.
    public var eventsRecovered = 0
    /// Event records on disk whose events had already been removed or dead-lettered.
    public var eventsAlreadyRemoved = 0
    /// Corrupt regions skipped in the middle of a file, each followed by valid records that were kept.
    public var corruptRegionsSkipped = 0
    /// The bytes in those regions.
    public var corruptBytesSkipped = 0
    /// The bytes of a torn write cut from the end of the newest segment or the dead-letter file.
    public var tornTailBytesTruncated = 0
    /// Records whose checksum was valid but whose contents were not: out of order, duplicated or undecodable.
    public var recordsIgnored = 0
    /// The events in the dead-letter file.
    public var deadLettersRecovered = 0

    /// Whether anything was skipped or cut.
    public var isClean: Bool {
        corruptRegionsSkipped == 0 && tornTailBytesTruncated == 0 && recordsIgnored == 0
    }

    /// Creates an empty report.
    public init() {}
}
