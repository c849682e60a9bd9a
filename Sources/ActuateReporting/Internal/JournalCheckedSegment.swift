/// A segment read from disk with its valid records found and their checksums verified, before recovery registers
/// any of them.
///
/// Verifying checksums is most of what opening a store costs, and each segment's can be verified on its own, so
/// ``JournalSegmentCheck`` checks the segments ahead on other threads while the opening thread registers, in
/// order, the records of those already checked.
struct JournalCheckedSegment: Sendable {
    /// One valid record, with what registering it needs read out of the file while the bytes are at hand on the
    /// checking thread, so that the opening thread touches only this compact list and not each record's bytes.
    struct Record: Sendable {
        /// The record's sequence number.
        var sequence: UInt64
        /// For an event record, its id's key if the payload holds one (see ``hasKey``).
        var key: JournalEventKey
        /// The key's ``JournalIDIndex/hash(_:)``, computed on the checking thread.
        var keyHash: Int
        /// Where the record starts in the segment.
        var offset: Int
        /// The length of its payload, at most a segment's capacity, which is below 2 GiB.
        var payloadLength: UInt32
        /// What the record holds.
        var kind: JournalRecordKind
        /// Whether ``key`` was read from an event's payload; `false` for other kinds and undecodable events.
        var hasKey: Bool

        /// Where its payload lies in the segment.
        var payload: Range<Int> {
            let start = offset + JournalRecord.headerSize
            return start..<(start + Int(payloadLength))
        }
    }

    /// The segment's number.
    var number: UInt64
    /// The whole file.
    var bytes: [UInt8]
    /// Its valid records, oldest first.
    var records: [Record]
    /// What the scan skipped.
    var summary: JournalScanSummary

    /// Bytes of segments read and not yet registered: enough to keep every core checking segments of the default
    /// size, little enough that recovery's memory stays small whatever the journal's total size.
    static let windowBytes = 8 << 20

    /// Records to reserve room for in `byteCount` bytes of segment: benchmark events take about 225 bytes a
    /// record, and a list that has to grow once per segment costs a copy of it (3.7 M instructions of an open of
    /// 100,000 events, `ACTUATE_BENCH_PROFILE=journal-open`).
    static func expectedRecords(inBytes byteCount: Int) -> Int { byteCount / 128 + 16 }

    /// Finds the valid records of segment `number`, whose file holds `bytes`, verifying their checksums.
    init(number: UInt64, bytes: [UInt8], maxPayload: Int) {
        var records: [Record] = []
        records.reserveCapacity(Self.expectedRecords(inBytes: bytes.count))
        let hashSeed = JournalIDIndex.seed
        summary = bytes.withUnsafeBytes { raw in
            JournalScanner.scan(raw, maxPayload: maxPayload) { scanned in
                records.append(Self.record(scanned, in: raw, hashSeed: hashSeed))
            }
        }
        self.number = number
        self.bytes = bytes
        self.records = records
    }

    /// The compact form of a scanned record, with an event's id key read from its payload and hashed with
    /// `hashSeed`, ``JournalIDIndex/seed``.
    @inline(__always)
    private static func record(_ scanned: JournalScannedRecord, in raw: UnsafeRawBufferPointer, hashSeed: Int) -> Record
    {
        var key = JournalEventKey(high: 0, low: 0)
        var keyHash = 0
        var hasKey = false
        if scanned.kind == .event,
            let found = ReportEventCodec.idKey(in: UnsafeRawBufferPointer(rebasing: raw[scanned.payload]))
        {
            key = found
            keyHash = JournalIDIndex.hash(found, seed: hashSeed)
            hasKey = true
        }
        return Record(
            sequence: scanned.sequence,
            key: key,
            keyHash: keyHash,
            offset: scanned.offset,
            payloadLength: UInt32(truncatingIfNeeded: scanned.payload.count),
            kind: scanned.kind,
            hasKey: hasKey
        )
    }
}
