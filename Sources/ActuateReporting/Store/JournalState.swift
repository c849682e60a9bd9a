import Foundation

/// Where one stored event lies in the journal.
struct JournalEntry: Sendable {
    /// The event's sequence number, increasing in append order.
    var sequence: UInt64
    /// The event's id, as the index keys it.
    var key: JournalEventKey
    /// The event's id.
    var id: UUID { key.id }
    /// The number of the segment that holds it.
    var segment: UInt64
    /// The offset of its record in the segment.
    var offset: Int
    /// The length of its payload.
    var payloadLength: Int
    /// Whether it is still stored: not removed, dead-lettered or dropped.
    var isLive: Bool

    /// The byte range of its payload in the segment.
    var payloadRange: Range<Int> {
        (offset + JournalRecord.headerSize)..<(offset + JournalRecord.headerSize + payloadLength)
    }
}

/// What the journal knows about one segment file.
struct JournalSegmentInfo: Sendable {
    /// The segment's number, which names its file.
    var number: UInt64
    /// The bytes it holds or will hold once pending writes are done.
    var size: Int
    /// How many of its events are still live.
    var liveCount: Int
    /// Earlier segments holding events that this segment's tombstones removed. While one of them exists, this
    /// segment must stay, or those events would come back on the next open.
    var tombstoneTargets: Set<UInt64> = []
}

/// One change to the journal's files, applied in order by ``JournalFiles``.
struct JournalOperation: Sendable {
    /// The segment it concerns.
    var segment: UInt64
    /// For a write, where the bytes go.
    var offset: Int
    /// For a write, the bytes; empty for a deletion.
    var bytes: [UInt8]
    /// Whether this deletes the segment's file rather than writing to it.
    var deletesSegment: Bool
}

/// The journal's bookkeeping: which events are live, where they are, which segments exist, and the file
/// changes that are still to be written. It does no I/O, so it can be tested and reasoned about on its own.
struct JournalState: Sendable {
    /// The most bytes one segment may hold.
    let segmentCapacity: Int
    /// The most bytes all segments together may hold: the disk cap less what quarantined copies take.
    var maxTotalBytes: Int

    private(set) var entries: [JournalEntry] = []
    /// Entries before this index are all dead.
    private var head = 0
    /// The sequence of every live event, by id.
    private var sequences = JournalIDIndex()
    private(set) var segments: [JournalSegmentInfo] = []
    private(set) var nextSequence: UInt64 = 1
    private var nextSegmentNumber: UInt64 = 1
    private(set) var totalBytes = 0
    private(set) var liveCount = 0
    private var pending: [JournalOperation] = []

    /// Events dropped since opening because of the size cap or because they could not be decoded.
    var droppedCount = 0
    /// Whether a group-commit write is scheduled.
    var flushScheduled = false
    /// Whether the store was closed.
    var isClosed = false
    /// The last write failure, cleared by the next successful write.
    var writeError: EventStoreError?
    /// The number of the write that will take the changes queued now: each ``takePending()`` takes one.
    private(set) var queuedWrite: UInt64 = 1
    /// The number of the last write taken by ``takePending()``.
    private var takenWrite: UInt64 = 0
    /// Every change queued for a write up to this number is on disk.
    private(set) var writtenThrough: UInt64 = 0

    /// The size of a segment header record.
    static let segmentHeaderSize = JournalRecord.headerSize + 1

    init(segmentCapacity: Int, maxTotalBytes: Int) {
        self.segmentCapacity = segmentCapacity
        self.maxTotalBytes = maxTotalBytes
    }

    /// The largest event payload a segment can take.
    var maxPayload: Int { segmentCapacity - Self.segmentHeaderSize - JournalRecord.headerSize }

    // MARK: Appending and removing

    /// Adds a framed event record whose header is not yet sealed, assigning its sequence number.
    ///
    /// - Returns: `false` if an event with the same id is already stored, in which case nothing changes.
    /// - Throws: ``EventStoreError/eventTooLarge(bytes:limit:)``.
    mutating func appendEvent(_ record: inout [UInt8], id: UUID, payloadDigest: UInt64) throws -> Bool {
        let payloadLength = record.count - JournalRecord.headerSize
        guard payloadLength <= maxPayload else {
            throw EventStoreError.eventTooLarge(bytes: payloadLength, limit: maxPayload)
        }
        let key = JournalEventKey(id)
        guard sequences[key] == nil else { return false }
        makeRoom(for: record.count)
        let sequence = nextSequence
        nextSequence += 1
        JournalRecord.seal(&record, at: 0, kind: .event, sequence: sequence, payloadDigest: payloadDigest)
        let active = segments.count - 1
        let offset = segments[active].size
        entries.append(
            JournalEntry(
                sequence: sequence,
                key: key,
                segment: segments[active].number,
                offset: offset,
                payloadLength: payloadLength,
                isLive: true
            )
        )
        _ = sequences.insert(key, sequence: sequence)
        segments[active].liveCount += 1
        liveCount += 1
        write(record, at: active)
        return true
    }

    /// Marks the events with these ids as removed and queues tombstones for them.
    ///
    /// - Returns: The entries that were live and are now removed, oldest first.
    @discardableResult
    mutating func remove(ids: some Sequence<UUID>) -> [JournalEntry] {
        var removed: [JournalEntry] = []
        for id in ids {
            guard let sequence = sequences[JournalEventKey(id)], let index = entryIndex(of: sequence) else { continue }
            kill(at: index)
            removed.append(entries[index])
        }
        guard !removed.isEmpty else { return [] }
        removed.sort { $0.sequence < $1.sequence }
        let chunkSize = max(1, (maxPayload - 16) / 24)
        var start = 0
        while start < removed.count {
            let ranges = JournalTombstone.ranges(of: removed[start...].prefix(chunkSize).map(\.sequence))
            let targets = Set(removed[start...].prefix(chunkSize).map(\.segment))
            appendTombstone(ranges: ranges, targets: targets)
            start += chunkSize
        }
        collectSegments()
        advanceHead()
        return removed
    }

    /// The oldest live entries.
    func liveEntries(limit: Int) -> [JournalEntry] {
        var result: [JournalEntry] = []
        var index = head
        while result.count < limit, index < entries.count {
            if entries[index].isLive { result.append(entries[index]) }
            index += 1
        }
        return result
    }

    /// The live entries with these ids, oldest first.
    func liveEntries(ids: Set<UUID>) -> [JournalEntry] {
        ids.compactMap { sequences[JournalEventKey($0)].flatMap(entryIndex(of:)).map { entries[$0] } }
            .sorted { $0.sequence < $1.sequence }
    }

    /// Whether a queued file change still has to be written before these entries can be read from the files:
    /// whether a pending write holds part of one of their records. Pending tombstones and deletions elsewhere
    /// do not keep the entries from being read.
    func pendingWriteOverlaps(_ entries: [JournalEntry]) -> Bool {
        for operation in pending where !operation.deletesSegment {
            let written = operation.offset..<(operation.offset + operation.bytes.count)
            let overlaps = entries.contains { entry in
                entry.segment == operation.segment
                    && (entry.offset..<entry.payloadRange.upperBound).overlaps(written)
            }
            if overlaps { return true }
        }
        return false
    }

    /// Takes the file changes that are still to be written, in order, as write number ``queuedWrite``.
    mutating func takePending() -> [JournalOperation] {
        flushScheduled = false
        takenWrite = queuedWrite
        queuedWrite += 1
        defer { pending = [] }
        return pending
    }

    /// Notes that the changes last taken by ``takePending()`` are on disk: with them, everything queued for that
    /// write or an earlier one, since the changes of a failed write are put back and go out with the next.
    mutating func takenChangesWritten() {
        writtenThrough = max(writtenThrough, takenWrite)
    }

    /// Puts back file changes that could not be written, ahead of any queued since.
    mutating func restorePending(_ operations: [JournalOperation]) {
        pending = operations + pending
    }

    /// Whether file changes are waiting to be written.
    var hasPending: Bool { !pending.isEmpty }

    // MARK: Recovery

    /// Registers a segment found on disk, after those already registered.
    mutating func recoverSegment(number: UInt64, size: Int) {
        segments.append(JournalSegmentInfo(number: number, size: size, liveCount: 0))
        totalBytes += size
        nextSegmentNumber = max(nextSegmentNumber, number + 1)
    }

    /// Notes a sequence number that must never be given to a new event.
    mutating func reserveSequence(below sequence: UInt64) {
        nextSequence = max(nextSequence, sequence)
    }

    /// How many events ``recoverEvents(_:)`` registers after touching their index slots together: enough for the
    /// processor to fetch that many slots at once, few enough that they are all still in the cache.
    static let recoveryChunk = 32

    /// Registers a run of event records found in the last registered segment, in order.
    ///
    /// The counts of live events and the next sequence are kept in locals and stored once for the run: with the
    /// overlap of checking and registering, registering 100,000 events went from 21.5 M to 18.2 M instructions
    /// (`ACTUATE_BENCH_PROFILE=journal-open`). The events go in chunks whose index slots are read first
    /// (``JournalIDIndex/touch(hashes:)``), so that the cache misses of a chunk overlap; with that index in place of
    /// a `Dictionary`, registering them takes 12.9 M instructions.
    /// - Parameter events: Event records only, oldest first.
    /// - Returns: How many were ignored: out of order, repeating a live id, or without an id.
    mutating func recoverEvents(_ events: ArraySlice<JournalCheckedSegment.Record>) -> Int {
        guard let active = segments.indices.last else { return events.count }
        let number = segments[active].number
        var next = nextSequence
        var added = 0
        var chunkStart = events.startIndex
        while chunkStart < events.endIndex {
            let chunk = events[chunkStart..<min(chunkStart + Self.recoveryChunk, events.endIndex)]
            chunkStart = chunk.endIndex
            sequences.touch(hashes: chunk.lazy.map(\.keyHash))
            for event in chunk {
                guard event.hasKey, event.sequence >= next else { continue }
                // One probe of the index: it inserts the id unless it is already live.
                guard sequences.insert(event.key, hash: event.keyHash, sequence: event.sequence) == nil else {
                    continue
                }
                entries.append(
                    JournalEntry(
                        sequence: event.sequence,
                        key: event.key,
                        segment: number,
                        offset: event.offset,
                        payloadLength: Int(event.payloadLength),
                        isLive: true
                    )
                )
                added += 1
                next = event.sequence + 1
            }
        }
        nextSequence = next
        segments[active].liveCount += added
        liveCount += added
        return events.count - added
    }

    /// Applies a tombstone found in the last registered segment.
    mutating func recoverTombstone(ranges: [ClosedRange<UInt64>]) {
        guard let active = segments.indices.last else { return }
        for range in ranges {
            var index = lowerBound(of: range.lowerBound)
            while index < entries.count, entries[index].sequence <= range.upperBound {
                if entries[index].isLive {
                    kill(at: index)
                    if entries[index].segment != segments[active].number {
                        segments[active].tombstoneTargets.insert(entries[index].segment)
                    }
                }
                index += 1
            }
        }
    }

    /// Finishes recovery: deletes segments nothing needs, enforces the size cap, and starts a segment to
    /// append to if there is none.
    mutating func finishRecovery() {
        collectSegments()
        while totalBytes > maxTotalBytes, segments.count > 1 { dropOldestSegment() }
        if segments.isEmpty { startSegment() }
        advanceHead()
    }

    // MARK: Private

    private mutating func kill(at index: Int) {
        entries[index].isLive = false
        sequences.remove(entries[index].key)
        liveCount -= 1
        if let segment = segmentIndex(of: entries[index].segment) { segments[segment].liveCount -= 1 }
    }

    private mutating func appendTombstone(ranges: [ClosedRange<UInt64>], targets: Set<UInt64>) {
        var record: [UInt8] = []
        JournalRecord.append(kind: .tombstone, sequence: nextSequence, to: &record) {
            JournalTombstone.encode(ranges, into: &$0)
        }
        makeRoom(for: record.count)
        let active = segments.count - 1
        let number = segments[active].number
        segments[active].tombstoneTargets.formUnion(targets.filter { $0 != number })
        write(record, at: active)
    }

    /// Starts a new segment if the record does not fit the active one, then drops the oldest segments until
    /// the record fits under the total cap.
    private mutating func makeRoom(for size: Int) {
        if segments.isEmpty || segments[segments.count - 1].size + size > segmentCapacity { startSegment() }
        while totalBytes + size > maxTotalBytes, segments.count > 1 { dropOldestSegment() }
    }

    private mutating func startSegment() {
        let number = nextSegmentNumber
        nextSegmentNumber += 1
        var record: [UInt8] = []
        JournalRecord.append(kind: .segmentHeader, sequence: nextSequence, to: &record) { $0.append(1) }
        segments.append(JournalSegmentInfo(number: number, size: 0, liveCount: 0))
        write(record, at: segments.count - 1)
        collectSegments()
    }

    /// Queues `record` at the end of the segment at `index`, merging with the previous write when adjacent.
    private mutating func write(_ record: [UInt8], at index: Int) {
        let number = segments[index].number
        let offset = segments[index].size
        segments[index].size += record.count
        totalBytes += record.count
        let last = pending.count - 1
        if last >= 0, !pending[last].deletesSegment, pending[last].segment == number,
            pending[last].offset + pending[last].bytes.count == offset
        {
            pending[last].bytes.append(contentsOf: record)
        } else {
            pending.append(JournalOperation(segment: number, offset: offset, bytes: record, deletesSegment: false))
        }
    }

    private mutating func dropOldestSegment() {
        let oldest = segments.removeFirst()
        totalBytes -= oldest.size
        var index = head
        while index < entries.count, entries[index].segment <= oldest.number {
            if entries[index].isLive {
                entries[index].isLive = false
                sequences.remove(entries[index].key)
                liveCount -= 1
                droppedCount += 1
            }
            index += 1
        }
        pending.append(JournalOperation(segment: oldest.number, offset: 0, bytes: [], deletesSegment: true))
        advanceHead()
    }

    /// Deletes every segment but the active one that holds no live events and whose tombstones no longer
    /// matter.
    private mutating func collectSegments() {
        guard segments.count > 1 else { return }
        var existing = Set(segments.map(\.number))
        var kept: [JournalSegmentInfo] = []
        kept.reserveCapacity(segments.count)
        for (index, segment) in segments.enumerated() {
            let isActive = index == segments.count - 1
            if !isActive, segment.liveCount == 0, segment.tombstoneTargets.isDisjoint(with: existing) {
                existing.remove(segment.number)
                totalBytes -= segment.size
                pending.append(JournalOperation(segment: segment.number, offset: 0, bytes: [], deletesSegment: true))
            } else {
                kept.append(segment)
            }
        }
        segments = kept
    }

    private mutating func advanceHead() {
        while head < entries.count, !entries[head].isLive { head += 1 }
        if head > 4096, head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }

    private func lowerBound(of sequence: UInt64) -> Int {
        var low = head
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].sequence < sequence { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func entryIndex(of sequence: UInt64) -> Int? {
        let index = lowerBound(of: sequence)
        return index < entries.count && entries[index].sequence == sequence ? index : nil
    }

    private func segmentIndex(of number: UInt64) -> Int? {
        var low = 0
        var high = segments.count
        while low < high {
            let middle = (low + high) / 2
            if segments[middle].number < number { low = middle + 1 } else { high = middle }
        }
        return low < segments.count && segments[low].number == number ? low : nil
    }
}

extension JournalState {
    /// Makes room for about `count` events before recovery registers them, so the index is not regrown.
    mutating func reserveCapacity(_ count: Int) {
        entries.reserveCapacity(count)
        sequences.reserveCapacity(count)
    }

    /// Sets the size of the last registered segment, once its records have been read.
    mutating func setRecoveredSize(_ size: Int) {
        guard let last = segments.indices.last else { return }
        totalBytes += size - segments[last].size
        segments[last].size = size
    }

    /// Forgets the last registered segment, which held no valid record and is being deleted.
    mutating func forgetEmptyNewestSegment() {
        guard let last = segments.last, last.liveCount == 0 else { return }
        totalBytes -= last.size
        segments.removeLast()
    }
}
