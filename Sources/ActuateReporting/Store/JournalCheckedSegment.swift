import Dispatch
import Synchronization

/// A segment read from disk with its valid records found and their checksums verified, before recovery registers
/// any of them.
///
/// Verifying checksums is most of what opening a store costs, and each segment's can be verified on its own, so
/// ``check(_:files:maxPayload:)`` does several segments at once, one per core, on other threads while the opening
/// thread registers the records of the segments before them; registering stays in order, on the opening thread.
struct JournalCheckedSegment: Sendable {
    /// The segment's number.
    var number: UInt64
    /// The whole file.
    var bytes: [UInt8]
    /// Its valid records, oldest first.
    var records: [JournalScannedRecord]
    /// What the scan skipped.
    var summary: JournalScanSummary

    /// Bytes of segments read in one window: enough to give every core a segment of the default size, little
    /// enough that recovery's memory (this window and the one being checked ahead) stays small whatever the
    /// journal's total size.
    static let windowBytes = 4 << 20

    /// Reads the segments `numbers` on this thread, in order, and starts verifying them in parallel on others.
    ///
    /// - Returns: The check, whose ``Pending/wait()`` gives the segments once verified.
    static func check(
        _ numbers: ArraySlice<UInt64>,
        files: inout JournalFiles,
        maxPayload: Int
    ) throws -> Pending {
        let segments = try numbers.map { number in
            JournalCheckedSegment(
                number: number,
                bytes: try files.readAll(segment: number),
                records: [],
                summary: .init()
            )
        }
        return Pending(segments, maxPayload: maxPayload)
    }

    /// Finds the valid records of each segment, one segment per core.
    private static func verify(_ segments: inout [JournalCheckedSegment], maxPayload: Int) {
        segments.withUnsafeMutableBufferPointer { segments in
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
    }

    /// Segments being verified on other threads.
    final class Pending: Sendable {
        private let result = Mutex<[JournalCheckedSegment]>([])
        private let done = DispatchSemaphore(value: 0)

        fileprivate init(_ segments: [JournalCheckedSegment], maxPayload: Int) {
            DispatchQueue.global(qos: .userInitiated).async { [self] in
                var segments = segments
                JournalCheckedSegment.verify(&segments, maxPayload: maxPayload)
                result.withLock { $0 = segments }
                done.signal()
            }
        }

        /// Waits until the segments are verified, and takes them. Call it once.
        func wait() -> [JournalCheckedSegment] {
            done.wait()
            return result.withLock { segments in
                defer { segments = [] }
                return segments
            }
        }
    }
}
