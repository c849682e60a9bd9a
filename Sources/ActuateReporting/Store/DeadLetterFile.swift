import Foundation

/// The dead-letter file of a journal directory, `dead-letters.journal`: checksummed records of the events delivery
/// gave up on, each with its reason, capped in size and read in pages.
///
/// The file is never read whole. Opening scans it a page at a time (``pageBytes``, or twice the largest record when
/// that is more) and keeps only the offset, length and sequence of each record; reading the letters goes through
/// that index a page at a time too.
///
/// The file holds at most ``maxBytes``. An append that would pass the cap rewrites the file without its oldest
/// records, down to three quarters of the cap so the next appends do not rewrite it again at once: the kept records
/// and the new ones are written to `dead-letters.journal.compacting`, which is synced and renamed over the file, so a
/// crash leaves either the old file or the new one. The newest record is always kept, even alone over the cap.
/// Records are numbered from 1 and keep their numbers when the file is rewritten, so the number of letters dropped
/// for the cap is the first kept record's number less one, which survives reopening.
///
/// It is used only while ``FileEventStore`` holds its I/O lock, one caller at a time.
struct DeadLetterFile {
    /// The name of the file.
    static let fileName = "dead-letters.journal"
    /// The suffix of the file being rewritten.
    static let compactingSuffix = ".compacting"
    /// The bytes read at a time, unless one record is larger: 64 KiB.
    static let defaultPageBytes = 64 << 10
    /// The longest reason kept with a letter, in UTF-8 bytes; longer reasons are cut.
    static let maxReasonBytes = 4096

    /// Where one record lies in the file.
    struct RecordSpan {
        var offset: Int
        var length: Int
        var sequence: UInt64

        var end: Int { offset + length }
    }

    let directory: String
    let path: String
    /// The most bytes the file may hold.
    let maxBytes: Int
    /// The largest payload a valid record may have: an event and its reason.
    let maxPayload: Int
    /// The bytes read at a time.
    var pageBytes = Self.defaultPageBytes
    private var descriptor: Int32
    /// The size of the file.
    private(set) var size = 0
    /// The records, oldest first.
    private(set) var spans: [RecordSpan] = []
    /// The number the next record gets.
    private(set) var nextSequence: UInt64 = 1
    /// Letters dropped, oldest first, to keep the file within ``maxBytes``.
    private(set) var droppedCount = 0
    /// The most bytes read at once, so tests can check that memory stays bounded.
    private(set) var largestRead = 0

    /// Opens, or creates, the file; a link in its place is refused (see ``POSIXFile/open(_:create:)``).
    init(directory: String, maxBytes: Int, maxEventPayload: Int) throws {
        self.directory = directory
        self.path = directory + "/" + Self.fileName
        self.maxBytes = maxBytes
        let (sum, overflow) = maxEventPayload.addingReportingOverflow(Self.maxReasonBytes + 16)
        self.maxPayload = overflow ? Int.max - JournalRecord.headerSize : sum
        // A rewrite that a crash interrupted left its temporary file; the file itself is intact.
        unlink(path + Self.compactingSuffix)
        descriptor = try POSIXFile.open(path, create: true)
    }

    /// The number of letters in the file.
    var count: Int { spans.count }

    /// The bytes read at a time when scanning: twice the largest record, so any record that starts in the first
    /// half of a page lies whole in it.
    private var scanPageBytes: Int {
        let largest = maxPayload.addingReportingOverflow(JournalRecord.headerSize)
        let twice = largest.partialValue.multipliedReportingOverflow(by: 2)
        return largest.overflow || twice.overflow ? Int.max : max(pageBytes, twice.partialValue)
    }

    // MARK: Opening

    /// Scans the file page by page, indexes its letters, cuts a torn tail and returns what was skipped and the ids
    /// of the letters.
    mutating func recover() throws -> (summary: JournalScanSummary, fileSize: Int, ids: Set<UUID>) {
        let fileSize = try POSIXFile.size(of: descriptor, path: path)
        let page = scanPageBytes
        var summary = JournalScanSummary()
        var corrupt: [Range<Int>] = []
        var ids: Set<UUID> = []
        var spans: [RecordSpan] = []
        var offset = 0
        while offset < fileSize {
            let count = min(page, fileSize - offset)
            let isLast = offset + count == fileSize
            let bytes = try read(at: offset, count: count)
            let chunk = Self.scanLetters(in: bytes, maxPayload: maxPayload) { record, id in
                guard let id else { return }
                ids.insert(id)
                spans.append(
                    RecordSpan(
                        offset: offset + record.offset,
                        length: record.payload.upperBound - record.offset,
                        sequence: record.sequence
                    )
                )
            }
            for range in chunk.corruptRanges { Self.add(range.shifted(by: offset), to: &corrupt) }
            if chunk.validEnd > 0 { summary.validEnd = offset + chunk.validEnd }
            if isLast { break }
            if chunk.validEnd > 0 {
                offset += chunk.validEnd
            } else {
                // No valid record in the page: one starting in its first half would lie whole in it, so that half
                // is damage if a valid record follows it, and part of the tail if none does.
                let skipped = count - page / 2
                Self.add(offset..<(offset + skipped), to: &corrupt)
                offset += skipped
            }
        }
        summary.corruptRanges = corrupt.filter { $0.lowerBound < summary.validEnd }
        summary.tailBytes = fileSize - summary.validEnd
        if fileSize != summary.validEnd {
            try POSIXFile.truncate(descriptor, to: summary.validEnd, path: path)
        }
        size = summary.validEnd
        self.spans = spans
        nextSequence = (spans.map(\.sequence).max() ?? 0) + 1
        droppedCount = spans.first.map { Int($0.sequence) - 1 } ?? 0
        return (summary, fileSize, ids)
    }

    private static func add(_ range: Range<Int>, to ranges: inout [Range<Int>]) {
        if let last = ranges.last, last.upperBound == range.lowerBound {
            ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
        } else {
            ranges.append(range)
        }
    }

    // MARK: Appending

    /// The payload of a letter: the event's journal payload and the reason, cut to ``maxReasonBytes``.
    static func payload(event: [UInt8], reason: String) -> [UInt8] {
        var payload = event
        var cut = reason
        if cut.utf8.count > maxReasonBytes {
            cut = String(decoding: reason.utf8.prefix(maxReasonBytes), as: UTF8.self)
            while cut.utf8.count > maxReasonBytes { cut.removeLast() }
        }
        ReportEventCodec.appendString(cut, to: &payload)
        return payload
    }

    /// Appends letters and makes them durable, dropping the oldest letters first when the file would pass its cap.
    /// - Parameters:
    ///   - payloads: Payloads made by ``payload(event:reason:)``, oldest first.
    ///   - directoryDescriptor: The open store directory, synced after a rewrite.
    mutating func append(_ payloads: [[UInt8]], directoryDescriptor: Int32) throws {
        guard !payloads.isEmpty else { return }
        var records: [UInt8] = []
        var added: [RecordSpan] = []
        var sequence = nextSequence
        for payload in payloads {
            let start = records.count
            JournalRecord.append(kind: .deadLetter, sequence: sequence, to: &records) { $0.append(contentsOf: payload) }
            added.append(RecordSpan(offset: start, length: records.count - start, sequence: sequence))
            sequence += 1
        }
        if size + records.count <= maxBytes {
            try POSIXFile.write(records, to: descriptor, at: size, path: path)
            try POSIXFile.sync(descriptor, path: path)
            spans += added.map { RecordSpan(offset: size + $0.offset, length: $0.length, sequence: $0.sequence) }
            size += records.count
        } else {
            try rewrite(adding: records, spans: added, directoryDescriptor: directoryDescriptor)
        }
        nextSequence = sequence
    }

    /// Writes the newest letters that fit in three quarters of the cap, new ones included, to a new file and
    /// renames it over the old one.
    private mutating func rewrite(adding records: [UInt8], spans added: [RecordSpan], directoryDescriptor: Int32) throws
    {
        let target = maxBytes / 4 * 3
        var kept = 0
        var firstAdded = added.count
        for index in added.indices.reversed() {
            guard kept == 0 || kept + added[index].length <= target else { break }
            kept += added[index].length
            firstAdded = index
        }
        var firstOld = spans.count
        if firstAdded == 0 {
            for index in spans.indices.reversed() {
                guard kept + spans[index].length <= target else { break }
                kept += spans[index].length
                firstOld = index
            }
        }
        let temporary = path + Self.compactingSuffix
        unlink(temporary)
        let output = try POSIXFile.create(temporary)
        var newSpans: [RecordSpan] = []
        var written = 0
        do {
            // The kept old records, a page of neighbouring records at a time.
            var index = firstOld
            while index < spans.count {
                var last = index
                while last + 1 < spans.count, spans[last + 1].offset == spans[last].end,
                    spans[last + 1].end - spans[index].offset <= pageBytes
                {
                    last += 1
                }
                let start = spans[index].offset
                let bytes = try read(at: start, count: spans[last].end - start)
                guard bytes.count == spans[last].end - start else {
                    throw EventStoreError.ioFailed(path: path, reason: "the file ends before byte \(spans[last].end)")
                }
                try POSIXFile.write(bytes, to: output, at: written, path: temporary)
                for span in spans[index...last] {
                    newSpans.append(
                        RecordSpan(offset: written + span.offset - start, length: span.length, sequence: span.sequence)
                    )
                }
                written += bytes.count
                index = last + 1
            }
            let newStart = firstAdded < added.count ? added[firstAdded].offset : records.count
            try POSIXFile.write(records[newStart...], to: output, at: written, path: temporary)
            for span in added[firstAdded...] {
                newSpans.append(
                    RecordSpan(offset: written + span.offset - newStart, length: span.length, sequence: span.sequence)
                )
            }
            written += records.count - newStart
            try POSIXFile.sync(output, path: temporary)
            guard rename(temporary, path) == 0 else {
                throw EventStoreError.ioFailed(path: path, reason: POSIXFile.lastError())
            }
        } catch {
            Foundation.close(output)
            unlink(temporary)
            throw error
        }
        Foundation.close(descriptor)
        descriptor = output
        try POSIXFile.sync(directoryDescriptor, path: directory)
        droppedCount += firstOld + firstAdded
        spans = newSpans
        size = written
    }

    // MARK: Reading

    /// Closes the file.
    mutating func close() {
        Foundation.close(descriptor)
        descriptor = -1
    }

    mutating func read(at offset: Int, count: Int) throws -> [UInt8] {
        largestRead = max(largestRead, count)
        return try POSIXFile.read(descriptor, at: offset, count: count, path: path)
    }
}

extension Range where Bound == Int {
    fileprivate func shifted(by offset: Int) -> Range<Int> {
        (lowerBound + offset)..<(upperBound + offset)
    }
}
