import Actuate
import Foundation
import Synchronization

/// A durable ``EventStore``: an append-only journal of checksummed records in size-capped segment files.
///
/// Events are written to `segment-*.journal` files in the store directory. Each record carries a checksum (a
/// 64-bit word mix folded to 32 bits; a CRC-32 in files written before record format 2, which are still read), so a
/// torn write at the end of a file or a corrupted record in the middle is detected when the store opens and
/// skipped, never returned as data (see `recoveryReport`). ``remove(ids:)`` appends a tombstone, so removed
/// events stay removed after reopening, and a segment is deleted once nothing in it is needed. Dead letters go
/// to a separate checksummed `dead-letters.journal`.
///
/// By default appends use ``DurabilityMode/groupCommit(interval:)`` with a 5 ms interval: `append` only queues
/// the event in memory and a background writer writes and syncs the queue 5 ms after the first queued append,
/// so a crash loses the events appended during the last interval plus the time the write and sync took (see
/// ``DurabilityMode/groupCommit(interval:)`` for the measured figure). Use ``DurabilityMode/synced`` to sync
/// before every `append` returns, or call ``flush()`` at the points that matter.
///
/// Only one store may have a directory open at a time, in this process or any other; the directory and files
/// are created readable by their owner only.
///
/// ```swift
/// let store = try FileEventStore(directory: applicationSupport.appending(path: "events"))
/// try store.append(event)
/// let batch = try store.fetch(count: 100, maxBytes: 500_000)
/// try store.remove(ids: Set(batch.map(\.id)))   // after the collector acknowledged them
/// ```
public final class FileEventStore: EventStore {
    /// The store directory.
    package let directory: URL
    /// How the store writes and how large it may grow.
    let configuration: FileEventStoreConfiguration
    /// What was found, skipped and cut when the store opened.
    package let recoveryReport: JournalRecoveryReport

    /// The journal's bookkeeping and the queue of file changes not yet written.
    private let state: Mutex<JournalState>
    /// The open files. Holding this lock gives the right to do file I/O; it is never taken while `state` is
    /// held, so the order is always `files` then `state`. Appends in group-commit mode never take it.
    private let files: Mutex<JournalFiles>
    /// Where synced appends wait for their events to reach disk, sharing writes.
    private let syncedAppends = SyncedAppendGate()
    /// The open reporting session's record, `open-session.json`.
    private let openSession: OpenSessionFile

    /// The writes that ``DurabilityMode/synced`` appends led so far, and the appends those writes carried: how
    /// many ways concurrent synced appends shared each sync (the benchmarks report it).
    package var syncedWriteCounts: (writes: Int, appends: Int) { syncedAppends.writeCounts }

    /// Opens, or creates, the store in `directory`, recovering what a previous run left.
    ///
    /// - Parameters:
    ///   - directory: The store directory, created with owner-only permissions if missing.
    ///   - configuration: Durability, size caps and scheduler; the defaults (group commit every 5 ms) unless set.
    /// - Throws: ``EventStoreError/invalidConfiguration(reason:)``,
    ///   ``EventStoreError/directoryUnavailable(path:reason:)``,
    ///   ``EventStoreError/lockedByAnotherProcess(directory:ownerPID:)`` or
    ///   ``EventStoreError/ioFailed(path:reason:)``.
    public init(directory: URL, configuration: FileEventStoreConfiguration = FileEventStoreConfiguration()) throws {
        try configuration.validate()
        let path = directory.standardizedFileURL.path
        try Self.prepareDirectory(path)
        let lock = try StoreLock(directory: path)
        let result: JournalRecovery.Result
        do {
            result = try JournalRecovery.open(directory: path, lock: lock, configuration: configuration)
        } catch {
            lock.release()
            throw error
        }
        self.directory = directory
        self.configuration = configuration
        self.recoveryReport = result.report
        self.state = Mutex(result.state)
        self.files = Mutex(result.files)
        self.openSession = OpenSessionFile(directory: path)
    }

    deinit {
        try? close()
    }

    // MARK: EventStore

    /// Stores an event: queued for the background writer in group-commit mode, written and synced before
    /// returning in synced mode.
    ///
    /// Appending an event whose id is already stored and not yet removed does nothing.
    /// - Parameter event: The event to store.
    /// - Throws: ``EventStoreError/eventTooLarge(bytes:limit:)`` when the event does not fit in a segment,
    ///   ``EventStoreError/encodingFailed(reason:)`` when its properties nest too deeply,
    ///   ``EventStoreError/ioFailed(path:reason:)`` when the journal cannot be written (in group-commit mode,
    ///   while the background writer keeps failing), and ``EventStoreError/closed`` after ``close()``.
    public func append(_ event: ReportEvent) throws {
        var record: [UInt8] = []
        record.reserveCapacity(512)
        let start = JournalRecord.begin(in: &record)
        try ReportEventCodec.encode(event, into: &record)
        let digest = JournalRecord.payloadDigest(of: record, at: start)
        let groupCommit = configuration.durability != .synced
        // The writer is scheduled after the lock is released, never from inside it.
        let (scheduleWriter, writeError, writeNumber) = try state.withLock {
            state -> (Bool, EventStoreError?, UInt64) in
            guard !state.isClosed else { throw EventStoreError.closed }
            let error = groupCommit ? state.writeError : nil
            if error == nil {
                _ = try state.appendEvent(&record, id: event.id, payloadDigest: digest)
            }
            guard groupCommit, !state.flushScheduled else { return (false, error, state.queuedWrite) }
            state.flushScheduled = true
            return (true, error, state.queuedWrite)
        }
        if scheduleWriter { scheduleBackgroundWrite() }
        if let writeError {
            // The background writer is failing: refuse the event rather than queue what may never reach disk.
            throw writeError
        }
        if !groupCommit {
            syncedAppends.appendQueued()
            try waitUntilWritten(writeNumber)
        }
    }

    /// The oldest stored events, without removing them, up to `count` events and `maxBytes` bytes as
    /// ``EventBatch`` encodes them (see ``EventStore/fetch(count:maxBytes:)``).
    ///
    /// An event whose record can no longer be decoded is removed and counted in ``droppedEventCount``.
    /// - Parameters:
    ///   - count: The most events to return.
    ///   - maxBytes: The most encoded bytes to return; at least one event is returned if any is stored.
    /// - Returns: Events, oldest first.
    /// - Throws: ``EventStoreError/ioFailed(path:reason:)`` or ``EventStoreError/closed``.
    public func fetch(count: Int, maxBytes: Int) throws -> [ReportEvent] {
        try fetchMeasured(count: count, maxBytes: maxBytes).events
    }

    /// ``fetch(count:maxBytes:)``, also returning the events as ``EventBatchEncoding/actuate`` writes them in a
    /// batch's `batch` array, comma separated: measuring them against `maxBytes` writes them so, and the uploader
    /// sends that JSON instead of encoding the events again.
    /// - Returns: The events, oldest first, and their JSON; nil JSON when `maxBytes` is `Int.max` (nothing is
    ///   measured).
    func fetchMeasured(count: Int, maxBytes: Int) throws -> (events: [ReportEvent], elements: [UInt8]?) {
        let batch = try fetchBatch(count: count, maxBytes: maxBytes, afterSequence: nil)
        return (batch.events, batch.elements)
    }

    /// ``fetchMeasured(count:maxBytes:)`` with the events' journal positions, starting after `afterSequence` when
    /// it is given: the uploader reads the batch after the one in flight with it, while that one is sent.
    ///
    /// The returned events reach disk before this returns, as with ``fetch(count:maxBytes:)``.
    /// - Parameters:
    ///   - count: The most events to return.
    ///   - maxBytes: The most encoded bytes to return, each event with one separator byte.
    ///   - afterSequence: Start after the event with this sequence number (the last of the batch in flight);
    ///     nil for the oldest stored events.
    /// - Returns: The events, oldest first, their JSON, and their sequence numbers.
    func fetchBatch(count: Int, maxBytes: Int, afterSequence: UInt64?) throws -> MeasuredBatch {
        guard count > 0 else { return MeasuredBatch(events: [], elements: nil, sequences: []) }
        var undecodable: [UUID] = []
        let measures = maxBytes != .max
        var elements = EventBatchJSONWriter(reservingCapacity: measures ? min(maxBytes, min(count, 2048) * 512) : 0)
        var sequences: [UInt64] = []
        let events = try files.withLock { files -> [ReportEvent] in
            // The fetched events reach disk before any network call: a queued change that holds one of them is
            // written and synced first. Queued changes that hold none (the tombstones of the last acknowledged
            // batch) are left to the background write already scheduled for them, so an upload loop does not
            // sync once per batch; without a scheduled write (synced mode, or after a failed write) they go now.
            let (operations, entries) = try state.withLock { state in
                guard !state.isClosed else { throw EventStoreError.closed }
                let entries =
                    afterSequence.map { state.liveEntries(afterSequence: $0, limit: count) }
                    ?? state.liveEntries(limit: count)
                let writeLater = state.flushScheduled && !state.pendingWriteOverlaps(entries)
                return (writeLater ? [] : state.takePending(), entries)
            }
            try write(operations, with: &files)
            var events: [ReportEvent] = []
            events.reserveCapacity(entries.count)
            sequences.reserveCapacity(entries.count)
            var bytes = 0
            try files.forEachPayload(of: entries) { entry, payload in
                var reader = payload
                guard let event = try? ReportEventCodec.decode(from: &reader) else {
                    undecodable.append(entry.id)
                    return true
                }
                if measures {
                    // Each event counts with one separator byte, as EventBatchSizing describes.
                    let mark = elements.json.bytes.count
                    if !events.isEmpty { elements.json.bytes.append(UInt8(ascii: ",")) }
                    let start = elements.json.bytes.count
                    elements.writeEvent(event)
                    let size = elements.json.bytes.count - start + 1
                    if !events.isEmpty, bytes + size > maxBytes {
                        elements.json.bytes.removeSubrange(mark...)
                        return false
                    }
                    bytes += size
                }
                events.append(event)
                sequences.append(entry.sequence)
                return true
            }
            return events
        }
        if !undecodable.isEmpty {
            try removeAndWrite(undecodable, countAsDropped: true)
        }
        return MeasuredBatch(events: events, elements: measures ? elements.bytes : nil, sequences: sequences)
    }

    /// Whether `batch`'s events are still the oldest stored events, every one of them, in order: then a batch
    /// read ahead is what ``fetchBatch(count:maxBytes:afterSequence:)`` would return now, or a prefix of it.
    /// - Throws: ``EventStoreError/closed``.
    func isOldestStored(_ batch: MeasuredBatch) throws -> Bool {
        try state.withLock { state in
            guard !state.isClosed else { throw EventStoreError.closed }
            return state.liveEntries(limit: batch.sequences.count).map(\.sequence) == batch.sequences
        }
    }

    public func remove(ids: Set<ReportEvent.ID>) throws {
        guard !ids.isEmpty else { return }
        try removeAndWrite(ids, countAsDropped: false)
    }

    private func moveEventsToDeadLetter(ids: Set<ReportEvent.ID>, reason: String) throws {
        guard !ids.isEmpty else { return }
        try files.withLock { files in
            let (operations, entries) = try state.withLock { state in
                guard !state.isClosed else { throw EventStoreError.closed }
                return (state.takePending(), state.liveEntries(ids: ids))
            }
            try write(operations, with: &files)
            guard !entries.isEmpty else { return }
            var payloads: [[UInt8]] = []
            payloads.reserveCapacity(entries.count)
            for entry in entries {
                let event = try files.read(segment: entry.segment, range: entry.payloadRange)
                payloads.append(DeadLetterFile.payload(event: event, reason: reason))
            }
            try files.appendDeadLetters(payloads)
            let removal = state.withLock { state in
                state.remove(ids: entries.map(\.id))
                return state.takePending()
            }
            try write(removal, with: &files)
        }
    }

    /// Moves events to the dead-letter file, within `FileEventStoreConfiguration.maxDeadLetterBytes`: when the
    /// file would pass it, its oldest letters are dropped first and counted in `droppedDeadLetterCount`. A reason
    /// longer than 4,096 UTF-8 bytes is cut.
    public func moveToDeadLetter(ids: Set<ReportEvent.ID>, reason: String) throws {
        try moveEventsToDeadLetter(ids: ids, reason: reason)
    }

    /// Every letter in the dead-letter file, oldest first, read from the file a page at a time.
    public func deadLetters() throws -> [DeadLetter] {
        try files.withLock { files in
            guard !files.isClosed else { throw EventStoreError.closed }
            var letters: [DeadLetter] = []
            try files.deadLetters.forEachPayload { payload in
                var reader = payload
                guard let event = try? ReportEventCodec.decode(from: &reader), let reason = try? reader.string()
                else { return }
                letters.append(DeadLetter(event: event, reason: reason))
            }
            return letters
        }
    }

    /// The number of dead letters dropped, oldest first, to keep the dead-letter file within
    /// ``FileEventStoreConfiguration/maxDeadLetterBytes``, since the file was created: it survives reopening.
    var droppedDeadLetterCount: Int {
        files.withLock { $0.deadLetters.droppedCount }
    }

    public func count() throws -> Int {
        try state.withLock { state in
            guard !state.isClosed else { throw EventStoreError.closed }
            return state.liveCount
        }
    }

    public var droppedEventCount: Int {
        state.withLock { $0.droppedCount }
    }

    // MARK: Flushing and closing

    /// Writes and syncs everything appended so far, whatever the durability mode.
    ///
    /// - Throws: ``EventStoreError/ioFailed(path:reason:)`` when the write fails; the events stay queued and
    ///   the next flush tries again. ``EventStoreError/closed`` after ``close()``.
    public func flush() throws {
        try files.withLock { files in
            guard !files.isClosed else { throw EventStoreError.closed }
            try write(state.withLock { $0.takePending() }, with: &files)
        }
    }

    /// Writes everything queued, closes the files and releases the directory lock.
    ///
    /// Later calls throw ``EventStoreError/closed``; closing twice does nothing. The store also closes itself
    /// when it is deallocated.
    /// - Throws: ``EventStoreError/ioFailed(path:reason:)`` when the final write fails.
    public func close() throws {
        let wasOpen = state.withLock { state -> Bool in
            defer { state.isClosed = true }
            return !state.isClosed
        }
        guard wasOpen else { return }
        openSession.close()
        try files.withLock { files in
            defer { files.close() }
            try write(state.withLock { $0.takePending() }, with: &files)
        }
    }

    // MARK: Private

    /// Returns once the changes queued for write number `number` are on disk.
    ///
    /// Synced appends that arrive while another's write and sync are in flight queue their events for the next
    /// write and wait in ``SyncedAppendGate``. When that write ends, those whose events it carried return; one of
    /// the others leads the next write, which takes every event queued so far. So concurrent synced appends share
    /// a sync, and each still returns only once its own event is durable.
    private func waitUntilWritten(_ number: UInt64) throws {
        try syncedAppends.waitUntilWritten {
            state.withLock { $0.writtenThrough >= number }
        } write: {
            try files.withLock { files in
                let operations = try state.withLock { state -> [JournalOperation]? in
                    guard state.writtenThrough < number else { return nil }
                    guard !files.isClosed else { throw EventStoreError.closed }
                    return state.takePending()
                }
                if let operations { try write(operations, with: &files) }
            }
        }
    }

    /// Applies file changes taken from the state, putting them back if they fail.
    private func write(_ operations: [JournalOperation], with files: inout JournalFiles) throws {
        guard !operations.isEmpty, !files.isClosed else { return }
        do {
            try files.apply(operations)
            state.withLock { state in
                state.writeError = nil
                state.takenChangesWritten()
            }
        } catch {
            let failure = error as? EventStoreError ?? .ioFailed(path: files.directory, reason: "\(error)")
            state.withLock { state in
                state.restorePending(operations)
                state.writeError = failure
            }
            throw failure
        }
    }

    private func removeAndWrite(_ ids: some Sequence<UUID>, countAsDropped: Bool) throws {
        let synced = configuration.durability == .synced
        let scheduleWriter = try state.withLock { state -> Bool in
            guard !state.isClosed else { throw EventStoreError.closed }
            let removed = state.remove(ids: ids)
            if countAsDropped { state.droppedCount += removed.count }
            guard !synced, state.hasPending, !state.flushScheduled else { return false }
            state.flushScheduled = true
            return true
        }
        if synced {
            try flush()
        } else if scheduleWriter {
            scheduleBackgroundWrite()
        }
    }

    private func scheduleBackgroundWrite() {
        guard case .groupCommit(let interval) = configuration.durability else { return }
        configuration.scheduler.schedule(after: interval) { [weak self] in
            // A failure is kept in the state and reported by the next append or flush.
            try? self?.flush()
        }
    }

    /// Creates the store directory and any missing parents with owner-only permissions, or explains which path
    /// is in the way and why.
    private static func prepareDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw EventStoreError.directoryUnavailable(path: path, reason: "it is a file, not a directory")
            }
            return
        }
        // Create each missing component with mkdir, so a failure names the component and the system's reason
        // instead of a generic Cocoa error.
        var missing: [String] = []
        var existing = path
        while !existing.isEmpty, existing != "/", !FileManager.default.fileExists(atPath: existing) {
            missing.append(existing)
            existing = (existing as NSString).deletingLastPathComponent
        }
        if FileManager.default.fileExists(atPath: existing, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw EventStoreError.directoryUnavailable(
                path: path,
                reason: "\(existing) is a file, not a directory, so the directory cannot be created inside it"
            )
        }
        for component in missing.reversed() where mkdir(component, 0o700) != 0 && errno != EEXIST {
            throw EventStoreError.directoryUnavailable(
                path: path,
                reason: "creating \(component) failed: \(POSIXFile.lastError())"
            )
        }
    }
}

// MARK: - Reading in pages

extension FileEventStore {
    /// Reads up to `count` stored events appended after the event with sequence number `sequence`, oldest first,
    /// without removing anything: a paged read for statistics that never holds more than one page.
    ///
    /// Events that cannot be decoded are skipped here (``fetch(count:maxBytes:)`` drops them).
    /// - Parameters:
    ///   - sequence: The `next` of the previous page; 0 for the first.
    ///   - count: The most events to return.
    /// - Returns: The events, and the sequence number to pass for the next page, or nil when this page was the
    ///   last (shorter than `count`).
    /// - Throws: ``EventStoreError/closed`` or ``EventStoreError/ioFailed(path:reason:)``.
    func readPage(afterSequence sequence: UInt64, count: Int) throws -> (events: [ReportEvent], next: UInt64?) {
        let limit = max(1, count)
        return try files.withLock { files in
            let (operations, entries) = try state.withLock { state in
                guard !state.isClosed else { throw EventStoreError.closed }
                return (state.takePending(), state.liveEntries(afterSequence: sequence, limit: limit))
            }
            try write(operations, with: &files)
            var events: [ReportEvent] = []
            events.reserveCapacity(entries.count)
            try files.forEachPayload(of: entries) { _, payload in
                var reader = payload
                if let event = try? ReportEventCodec.decode(from: &reader) { events.append(event) }
                return true
            }
            // A short page is the last one.
            return (events, entries.count < limit ? nil : entries.last?.sequence)
        }
    }

    /// Calls `body` at the start of every write to the journal's files, on the writing thread and while it holds
    /// the files, so that a test can see which append writes and make others arrive meanwhile.
    func observeWrites(_ body: @escaping @Sendable () -> Void) {
        files.withLock { $0.willApply = body }
    }

    /// The number of dead letters, without reading them.
    func storedDeadLetterCount() throws -> Int {
        try files.withLock { files in
            guard !files.isClosed else { throw EventStoreError.closed }
            return files.deadLetters.count
        }
    }

    /// The most bytes of the dead-letter file read at once since the store opened, for tests of paging.
    var largestDeadLetterRead: Int {
        files.withLock { $0.deadLetters.largestRead }
    }
}

extension FileEventStore: OpenSessionKeeping {
    package func loadOpenSession() -> OpenSessionRecord? {
        openSession.load()
    }

    package func saveOpenSession(_ record: OpenSessionRecord?) {
        openSession.save(record)
    }
}
