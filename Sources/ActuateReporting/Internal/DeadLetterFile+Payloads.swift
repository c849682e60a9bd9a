import Foundation

// The dead-letter file's byte work: the lending of payloads and the scan of a page, where its records are read in
// place. The rest of `DeadLetterFile` handles arrays and offsets only (see OWNERSHIP.md).
extension DeadLetterFile {
    /// Visits the valid records of a page of the file, each with the event id of a dead letter's payload (nil for
    /// another kind of record, or a payload without an id).
    /// - Returns: What the scan skipped.
    static func scanLetters(
        in bytes: [UInt8],
        maxPayload: Int,
        visit: (JournalScannedRecord, UUID?) -> Void
    ) -> JournalScanSummary {
        bytes.withUnsafeBytes { raw in
            JournalScanner.scan(raw, maxPayload: maxPayload) { record in
                guard record.kind == .deadLetter else { return visit(record, nil) }
                visit(record, ReportEventCodec.id(in: UnsafeRawBufferPointer(rebasing: raw[record.payload])))
            }
        }
    }

    /// Calls `body` with a reader over the payload of every letter, oldest first, reading a page of letters at a
    /// time. The reader is valid only during the call and must not escape it.
    mutating func forEachPayload(_ body: (JournalByteReader) throws -> Void) throws {
        var index = 0
        while index < spans.count {
            var last = index
            while last + 1 < spans.count, spans[last + 1].end - spans[index].offset <= pageBytes { last += 1 }
            let start = spans[index].offset
            let bytes = try read(at: start, count: spans[last].end - start)
            guard bytes.count == spans[last].end - start else {
                throw EventStoreError.ioFailed(path: path, reason: "the file ends before byte \(spans[last].end)")
            }
            try bytes.withUnsafeBytes { raw in
                for span in spans[index...last] {
                    let payload = (span.offset - start + JournalRecord.headerSize)..<(span.end - start)
                    try body(JournalByteReader(UnsafeRawBufferPointer(rebasing: raw[payload])))
                }
            }
            index = last + 1
        }
    }
}
