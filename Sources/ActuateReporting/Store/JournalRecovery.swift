import Foundation

/// Rebuilds a journal's bookkeeping from its files when a ``FileEventStore`` opens.
enum JournalRecovery {
    /// What opening produced.
    struct Result {
        var state: JournalState
        var files: JournalFiles
        var report: JournalRecoveryReport
    }

    /// Reads every segment and the dead-letter file, verifying each record's checksum.
    ///
    /// Corrupt records are skipped, a torn tail of the newest segment or of the dead-letter file is cut off so
    /// later appends start clean, segments nothing needs are deleted, and events that are already in the
    /// dead-letter file (from a crash while moving them) are removed from the queue. Every skipped or cut region
    /// is reported, and a damaged segment is copied to the quarantine before anything in it is cut or deleted.
    static func open(directory: String, lock: StoreLock, configuration: FileEventStoreConfiguration) throws -> Result {
        var state = JournalState(
            segmentCapacity: configuration.segmentSize,
            maxTotalBytes: configuration.maxTotalBytes
        )
        var files = try JournalFiles(
            directory: directory,
            lock: lock,
            maxDeadLetterBytes: configuration.maxDeadLetterBytes,
            maxEventPayload: state.maxPayload,
            segmentCapacity: configuration.segmentSize
        )
        do {
            var report = JournalRecoveryReport()
            try recoverSegments(
                into: &state,
                files: &files,
                report: &report,
                maxTotalBytes: configuration.maxTotalBytes
            )
            let deadLetterIDs = try recoverDeadLetters(files: &files, report: &report)
            state.finishRecovery()
            state.remove(ids: deadLetterIDs)
            try files.apply(state.takePending())
            report.eventsRecovered = state.liveCount
            report.damage.sort { ($0.file, $0.byteRange.lowerBound) < ($1.file, $1.byteRange.lowerBound) }
            return Result(state: state, files: files, report: report)
        } catch {
            files.close()
            throw error
        }
    }

    /// What recovery learned about one segment, to check it against the next.
    private struct ScannedSegment {
        var number: UInt64
        var size: Int
        /// The sequence in the segment's header record, if the header was intact.
        var headerSequence: UInt64?
        /// The sequence the next record after the segment's last valid record would carry, if it has one.
        var nextSequence: UInt64?
        /// Whether damage at its end was already reported.
        var endDamaged: Bool
    }

    private static func recoverSegments(
        into state: inout JournalState,
        files: inout JournalFiles,
        report: inout JournalRecoveryReport,
        maxTotalBytes: Int
    ) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: files.directory)
        } catch {
            throw EventStoreError.directoryUnavailable(path: files.directory, reason: error.localizedDescription)
        }
        var quarantine = JournalQuarantine(
            directory: files.directory,
            budget: JournalQuarantine.budget(maxTotalBytes: maxTotalBytes),
            fileNames: names
        )
        quarantine.evictOldest()
        let numbers = names.compactMap(JournalFiles.segmentNumber(fileName:)).sorted()
        let maxPayload = state.maxPayload
        let sizes = numbers.map { number in
            var info = stat()
            return lstat(files.path(ofSegment: number), &info) == 0 ? Int(info.st_size) : 0
        }
        state.reserveCapacity(sizes.reduce(0, +) / 128)
        var scanned: [ScannedSegment] = []
        // Segments read and being checked on other threads, oldest first, and the bytes of those not yet taken.
        var checks: [JournalSegmentCheck] = []
        var nextCheck = 0
        var checkedBytes = 0
        for (position, number) in numbers.enumerated() {
            // Start reading and checking the next segments on other threads, up to the window's bytes, while this
            // thread registers the records of those checked before them. Each check opens, reads and closes its
            // own file: reading was a third of this thread's time.
            while nextCheck < numbers.count,
                nextCheck == position || checkedBytes + sizes[nextCheck] <= JournalCheckedSegment.windowBytes
            {
                let path = files.path(ofSegment: numbers[nextCheck])
                checks.append(
                    JournalSegmentCheck(number: numbers[nextCheck], maxPayload: maxPayload) {
                        try JournalFiles.readAll(path: path)
                    }
                )
                checkedBytes += sizes[nextCheck]
                nextCheck += 1
            }
            let check = try checks[position].result()
            checkedBytes -= sizes[position]
            let isNewest = position == numbers.count - 1
            let bytes = check.bytes
            report.segmentsScanned += 1
            var segment = ScannedSegment(number: number, size: bytes.count, endDamaged: false)
            let summary = check.summary
            // The segment is registered first so that its records land in it; its size is fixed below.
            state.recoverSegment(number: number, size: 0)
            if let first = check.records.first, first.offset == 0, first.kind == .segmentHeader {
                segment.headerSequence = first.sequence
            }
            if let last = check.records.last {
                segment.nextSequence = last.kind == .event ? last.sequence + 1 : last.sequence
            }
            report.recordsIgnored += recover(check.records, in: bytes, into: &state)
            var regions = summary.corruptRanges.map { JournalDamage(file: "", byteRange: $0, kind: .corruptRecords) }
            let tail = summary.validEnd..<bytes.count
            if isNewest, !tail.isEmpty {
                regions.append(JournalDamage(file: "", byteRange: tail, kind: .tornTail))
            } else if !isNewest, !tail.isEmpty || bytes.isEmpty {
                // Only the newest segment is ever written to, so an older one that does not end with a valid
                // record, or is empty, was damaged after it was complete.
                regions.append(
                    JournalDamage(file: "", byteRange: tail, kind: bytes.isEmpty ? .missingRecords : .damagedEnd)
                )
                segment.endDamaged = true
            }
            record(regions, ofSegment: number, bytes: bytes, in: &report, quarantine: &quarantine)
            var size = bytes.count
            if isNewest, !tail.isEmpty {
                try files.truncate(segment: number, to: summary.validEnd)
                size = summary.validEnd
            }
            state.setRecoveredSize(size)
            if isNewest, size == 0 {
                state.forgetEmptyNewestSegment()
                try files.delete(segment: number)
            }
            scanned.append(segment)
        }
        try findMissingRecords(in: scanned, files: &files, report: &report, quarantine: &quarantine)
        // A copy made early may have been deleted to make room for a later one.
        let kept = quarantine.fileNames
        for index in report.damage.indices where !kept.contains(report.damage[index].quarantinedAs ?? "") {
            report.damage[index].quarantinedAs = nil
        }
        state.maxTotalBytes = maxTotalBytes - quarantine.totalBytes
        report.eventsAlreadyRemoved = state.entries.count - state.liveCount
    }

    /// Registers the valid records of the segment being recovered, in order.
    ///
    /// - Returns: How many were ignored: events out of order, repeating a live id or without an id, undecodable
    ///   tombstones, and dead letters (which belong in the dead-letter file).
    private static func recover(
        _ records: [JournalCheckedSegment.Record],
        in bytes: [UInt8],
        into state: inout JournalState
    ) -> Int {
        var ignored = 0
        var index = records.startIndex
        while index < records.endIndex {
            let record = records[index]
            switch record.kind {
            case .segmentHeader:
                state.reserveSequence(below: record.sequence)
            case .event:
                // Register the whole run of events up to the next record of another kind at once.
                var end = index + 1
                while end < records.endIndex, records[end].kind == .event { end += 1 }
                ignored += state.recoverEvents(records[index..<end])
                index = end
                continue
            case .tombstone:
                state.reserveSequence(below: record.sequence)
                let ranges = try? JournalTombstone.decode(bytes, payload: record.payload)
                if let ranges {
                    state.recoverTombstone(ranges: ranges)
                } else {
                    ignored += 1
                }
            case .deadLetter:
                ignored += 1
            }
            index += 1
        }
        return ignored
    }

    /// Reports records missing from the end of a segment, which only the next segment's header reveals: each
    /// segment holds the events from its header's sequence up to the next segment's.
    private static func findMissingRecords(
        in segments: [ScannedSegment],
        files: inout JournalFiles,
        report: inout JournalRecoveryReport,
        quarantine: inout JournalQuarantine
    ) throws {
        for (segment, next) in zip(segments, segments.dropFirst())
        where !segment.endDamaged && next.number == segment.number + 1 {
            guard let expected = next.headerSequence, let found = segment.nextSequence, found < expected else {
                continue
            }
            let region = JournalDamage(file: "", byteRange: segment.size..<segment.size, kind: .missingRecords)
            let bytes = try files.readAll(segment: segment.number)
            record([region], ofSegment: segment.number, bytes: bytes, in: &report, quarantine: &quarantine)
        }
    }

    /// Quarantines a damaged segment as it was found and adds its regions to the report.
    private static func record(
        _ regions: [JournalDamage],
        ofSegment number: UInt64,
        bytes: [UInt8],
        in report: inout JournalRecoveryReport,
        quarantine: inout JournalQuarantine
    ) {
        guard !regions.isEmpty else { return }
        let copy = quarantine.keep(segment: number, bytes: bytes)
        for var region in regions {
            region.file = JournalFiles.fileName(ofSegment: number)
            region.quarantinedAs = copy
            report.record(region)
        }
    }

    /// Scans the dead-letter file a page at a time (see ``DeadLetterFile/recover()``) and reports its damage.
    private static func recoverDeadLetters(
        files: inout JournalFiles,
        report: inout JournalRecoveryReport
    ) throws
        -> Set<UUID>
    {
        let (summary, fileSize, ids) = try files.deadLetters.recover()
        let name = JournalFiles.deadLetterFileName
        for range in summary.corruptRanges {
            report.record(JournalDamage(file: name, byteRange: range, kind: .corruptRecords))
        }
        if summary.tailBytes > 0 {
            report.record(JournalDamage(file: name, byteRange: summary.validEnd..<fileSize, kind: .tornTail))
        }
        report.deadLettersRecovered = files.deadLetters.count
        return ids
    }
}
