/// What a ``FileEventStore`` found when it opened its directory.
///
/// Every region that recovery skipped or cut, in any segment or in the dead-letter file, is listed in
/// ``damage`` with its file and byte range, and counted below.
package struct JournalRecoveryReport: Sendable, Hashable {
    /// The segment files read.
    package var segmentsScanned = 0
    /// The events still queued after recovery.
    package var eventsRecovered = 0
    /// Event records on disk whose events had already been removed or dead-lettered.
    package var eventsAlreadyRemoved = 0
    /// Damaged regions skipped: corrupt records in the middle of a file, and the damaged or missing end of a
    /// segment that is not the newest. Torn tails are counted in ``tornTailBytesTruncated`` instead.
    package var corruptRegionsSkipped = 0
    /// The bytes in those regions.
    package var corruptBytesSkipped = 0
    /// The bytes of a torn write cut from the end of the newest segment or the dead-letter file.
    package var tornTailBytesTruncated = 0
    /// Records whose checksum was valid but whose contents were not: out of order, duplicated or undecodable.
    package var recordsIgnored = 0
    /// The events in the dead-letter file.
    package var deadLettersRecovered = 0
    /// Every region skipped or cut, oldest file first.
    package var damage: [JournalDamage] = []

    /// Whether anything was skipped or cut.
    package var isClean: Bool {
        damage.isEmpty && recordsIgnored == 0
    }

    /// Creates an empty report.
    package init() {}

    /// Records one damaged region and counts it.
    mutating func record(_ region: JournalDamage) {
        damage.append(region)
        if region.kind == .tornTail {
            tornTailBytesTruncated += region.byteRange.count
        } else {
            corruptRegionsSkipped += 1
            corruptBytesSkipped += region.byteRange.count
        }
    }
}

/// One region of a journal file that recovery skipped or cut.
///
/// A segment with damage is copied, before anything in it is cut or deleted, to a file named after it with
/// `.damaged` appended (see ``quarantinedAs``), so that it can be inspected later. The copies together are
/// kept under a quarter of ``FileEventStoreConfiguration/maxTotalBytes``, the oldest segments' copies
/// deleted first, and the journal's own segments get what remains of the cap.
package struct JournalDamage: Sendable, Hashable {
    /// What kind of damage the region is.
    package enum Kind: String, Sendable, Hashable {
        /// Bytes that fail their checksum, followed by valid records that were kept.
        case corruptRecords
        /// Bytes after the last valid record of a segment that is not the newest, where records should be: a
        /// flipped bit in its last records, a cut through a record, or a file overwritten. Its events there are
        /// lost.
        case damagedEnd
        /// Whole records missing from the end of a segment that is not the newest: it was cut at a record
        /// boundary, which only the first sequence number of the next segment reveals. The range is empty, at the
        /// end of the file.
        case missingRecords
        /// Bytes after the last valid record of the newest segment or of the dead-letter file, cut off so that
        /// appends start clean: what an interrupted write leaves.
        case tornTail
    }

    /// The file's name in the store directory, for example `segment-0000000000000003.journal`.
    package var file: String
    /// The byte range of the region in the file as it was found.
    package var byteRange: Range<Int>
    /// What kind of damage it is.
    package var kind: Kind
    /// The name of the copy of the whole file as it was found, or `nil` when it was not kept (the dead-letter
    /// file, or a copy that alone would exceed the quarantine's share of the disk cap).
    package var quarantinedAs: String?

    /// Creates a record of a damaged region.
    /// - Parameters:
    ///   - file: The file's name in the store directory.
    ///   - byteRange: The region's byte range.
    ///   - kind: What kind of damage it is.
    ///   - quarantinedAs: The name of the copy of the file, if one was kept.
    package init(file: String, byteRange: Range<Int>, kind: Kind, quarantinedAs: String? = nil) {
        self.file = file
        self.byteRange = byteRange
        self.kind = kind
        self.quarantinedAs = quarantinedAs
    }
}
