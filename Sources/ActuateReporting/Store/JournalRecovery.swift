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
    /// dead-letter file (from a crash while moving them) are removed from the queue.
    static func open(directory: String, lock: StoreLock, configuration: FileEventStoreConfiguration) throws -> Result {
        var files = try JournalFiles(directory: directory, lock: lock)
        do {
            var state = JournalState(
                segmentCapacity: configuration.segmentSize,
                maxTotalBytes: configuration.maxTotalBytes
            )
            var report = JournalRecoveryReport()
            try recoverSegments(into: &state, files: &files, report: &report)
            let deadLetterIDs = try recoverDeadLetters(files: &files, report: &report, maxPayload: state.maxPayload)
            state.finishRecovery()
            state.remove(ids: deadLetterIDs)
            try files.apply(state.takePending())
            report.eventsRecovered = state.liveCount
            return Result(state: state, files: files, report: report)
        } catch {
            files.close()
            throw error
        }
    }

    private static func recoverSegments(
        into state: inout JournalState,
        files: inout JournalFiles,
        report: inout JournalRecoveryReport
    ) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: files.directory)
        } catch {
            throw EventStoreError.directoryUnavailable(path: files.directory, reason: error.localizedDescription)
        }
        let numbers = names.compactMap(JournalFiles.segmentNumber(fileName:)).sorted()
        let maxPayload = state.maxPayload
        let totalSize = numbers.reduce(0) { total, number in
            var info = stat()
            return total + (stat(files.path(ofSegment: number), &info) == 0 ? Int(info.st_size) : 0)
        }
        state.reserveCapacity(totalSize / 128)
        for (position, number) in numbers.enumerated() {
            let isNewest = position == numbers.count - 1
            let bytes = try files.readAll(segment: number)
            report.segmentsScanned += 1
            var recovered = 0
            let summary = bytes.withUnsafeBytes { raw in
                // The segment is registered first so that its records land in it; its size is fixed below.
                state.recoverSegment(number: number, size: 0)
                return JournalScanner.scan(raw, maxPayload: maxPayload) { record in
                    let payload = UnsafeRawBufferPointer(rebasing: raw[record.payload])
                    switch record.kind {
                    case .segmentHeader:
                        state.reserveSequence(below: record.sequence)
                    case .event:
                        if let id = ReportEventCodec.id(in: payload),
                            state.recoverEvent(
                                sequence: record.sequence,
                                id: id,
                                offset: record.offset,
                                payloadLength: payload.count
                            )
                        {
                            recovered += 1
                        } else {
                            report.recordsIgnored += 1
                        }
                    case .tombstone:
                        state.reserveSequence(below: record.sequence)
                        if let ranges = try? JournalTombstone.decode(payload) {
                            state.recoverTombstone(ranges: ranges)
                        } else {
                            report.recordsIgnored += 1
                        }
                    case .deadLetter:
                        report.recordsIgnored += 1
                    }
                }
            }
            report.corruptRegionsSkipped += summary.corruptRegions
            report.corruptBytesSkipped += summary.corruptBytes
            var size = bytes.count
            if isNewest, summary.tailBytes > 0 {
                try files.truncate(segment: number, to: summary.validEnd)
                report.tornTailBytesTruncated += summary.tailBytes
                size = summary.validEnd
            }
            state.setRecoveredSize(size)
            if isNewest, size == 0 {
                state.forgetEmptyNewestSegment()
                try files.delete(segment: number)
            }
        }
        report.eventsAlreadyRemoved = state.entries.count - state.liveCount
    }

    private static func recoverDeadLetters(
        files: inout JournalFiles,
        report: inout JournalRecoveryReport,
        maxPayload: Int
    ) throws -> Set<UUID> {
        let bytes = try files.readDeadLetters()
        var ids: Set<UUID> = []
        var count = 0
        let summary = bytes.withUnsafeBytes { raw in
            JournalScanner.scan(raw, maxPayload: Int(Int32.max)) { record in
                guard record.kind == .deadLetter,
                    let id = ReportEventCodec.id(in: UnsafeRawBufferPointer(rebasing: raw[record.payload]))
                else { return }
                ids.insert(id)
                count += 1
            }
        }
        report.corruptRegionsSkipped += summary.corruptRegions
        report.corruptBytesSkipped += summary.corruptBytes
        report.tornTailBytesTruncated += summary.tailBytes
        try files.truncateDeadLetters(to: summary.validEnd)
        files.deadLetterCount = count
        report.deadLettersRecovered = count
        return ids
    }
}
