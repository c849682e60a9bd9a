import Dispatch

/// A segment read from disk with its valid records found and their checksums verified, before recovery registers
/// any of them.
///
/// Verifying checksums is most of what opening a store costs, and each segment's can be verified on its own, so
/// ``check(_:files:maxPayload:)`` does several segments at once, one per core; registering the records stays in
/// order, on the opening thread.
struct JournalCheckedSegment {
    /// The segment's number.
    var number: UInt64
    /// The whole file.
    var bytes: [UInt8]
    /// Its valid records, oldest first.
    var records: [JournalScannedRecord]
    /// What the scan skipped.
    var summary: JournalScanSummary

    /// Bytes of segments held at once: enough to give every core a segment of the default size, little enough
    /// that recovery's memory stays small whatever the journal's total size.
    static let windowBytes = 8 << 20

    /// Reads the segments `numbers`, in order, and verifies them in parallel.
    static func check(
        _ numbers: ArraySlice<UInt64>,
        files: inout JournalFiles,
        maxPayload: Int
    ) throws -> [JournalCheckedSegment] {
        let contents = try numbers.map { try files.readAll(segment: $0) }
        var checked = contents.map { JournalCheckedSegment(number: 0, bytes: $0, records: [], summary: .init()) }
        checked.withUnsafeMutableBufferPointer { segments in
            // Each iteration reads and writes only its own element, and concurrentPerform returns after all.
            nonisolated(unsafe) let shared = segments
            DispatchQueue.concurrentPerform(iterations: shared.count) { index in
                var records: [JournalScannedRecord] = []
                records.reserveCapacity(shared[index].bytes.count / 256)
                shared[index].summary = shared[index].bytes.withUnsafeBytes { raw in
                    JournalScanner.scan(raw, maxPayload: maxPayload) { records.append($0) }
                }
                shared[index].records = records
            }
        }
        for (index, number) in numbers.enumerated() { checked[index].number = number }
        return checked
    }
}
