import Actuate
import Foundation

/// The open files of a journal directory: its segments, its dead-letter file and its lock.
///
/// It is used only while ``FileEventStore`` holds its I/O lock, one caller at a time.
package struct JournalFiles: Sendable {
    /// The name of the dead-letter file.
    package static let deadLetterFileName = DeadLetterFile.fileName

    /// The store directory.
    let directory: String
    /// The bytes of disk space each new segment reserves when it is created: its capacity (see
    /// `FileSpaceReservation`).
    private let segmentReservation: Int
    private var descriptors: [UInt64: Int32] = [:]
    private var directoryDescriptor: Int32
    private var lock: StoreLock?
    /// The dead-letter file.
    var deadLetters: DeadLetterFile
    /// Called at the start of every ``apply(_:)``, on the writing thread: a test seam (see
    /// `FileEventStore.observeWrites(_:)`).
    var willApply: (@Sendable () -> Void)?

    /// Opens the directory and its dead-letter file; the caller has taken the lock.
    /// - Parameters:
    ///   - directory: The store directory.
    ///   - lock: The lock the caller holds on it.
    ///   - maxDeadLetterBytes: The cap of the dead-letter file.
    ///   - maxEventPayload: The largest event payload a segment holds.
    ///   - segmentCapacity: The most bytes a segment holds; each new segment reserves that much disk space.
    init(
        directory: String,
        lock: StoreLock,
        maxDeadLetterBytes: Int,
        maxEventPayload: Int,
        segmentCapacity: Int
    ) throws {
        self.directory = directory
        self.segmentReservation = segmentCapacity
        let directoryDescriptor = try POSIXFile.openDirectory(directory).descriptor
        do {
            deadLetters = try DeadLetterFile(
                directory: directory,
                maxBytes: maxDeadLetterBytes,
                maxEventPayload: maxEventPayload
            )
        } catch {
            Foundation.close(directoryDescriptor)
            throw error
        }
        self.directoryDescriptor = directoryDescriptor
        self.lock = lock
    }

    /// Whether the files were closed.
    var isClosed: Bool { lock == nil }

    /// The file name of a segment.
    package static func fileName(ofSegment number: UInt64) -> String {
        let hex = String(number, radix: 16)
        return "segment-" + String(repeating: "0", count: max(0, 16 - hex.count)) + hex + ".journal"
    }

    /// The segment number a file name stands for, if it names a segment.
    static func segmentNumber(fileName: String) -> UInt64? {
        guard fileName.hasPrefix("segment-"), fileName.hasSuffix(".journal") else { return nil }
        return UInt64(fileName.dropFirst(8).dropLast(8), radix: 16)
    }

    /// The full path of a segment.
    func path(ofSegment number: UInt64) -> String {
        directory + "/" + Self.fileName(ofSegment: number)
    }

    /// Applies file changes in order and makes them durable.
    ///
    /// Writes go to fixed offsets and deleting a missing file succeeds, so applying the same changes again
    /// after a failure is safe.
    mutating func apply(_ operations: [JournalOperation]) throws {
        willApply?()
        var written: Set<UInt64> = []
        var directoryChanged = false
        for operation in operations {
            if operation.deletesSegment {
                if let descriptor = descriptors.removeValue(forKey: operation.segment) { Foundation.close(descriptor) }
                written.remove(operation.segment)
                let path = path(ofSegment: operation.segment)
                if unlink(path) != 0, errno != ENOENT {
                    throw EventStoreError.ioFailed(path: path, reason: POSIXFile.lastError())
                }
                directoryChanged = true
            } else {
                let descriptor = try descriptor(ofSegment: operation.segment, create: true)
                // A new segment's first write: reserve its blocks, so that syncing the appends that fill it writes
                // no block allocations. Where nothing can be reserved, the writes allocate as they go.
                if operation.offset == 0 {
                    FileSpaceReservation.reserve(descriptor: descriptor, byteCount: segmentReservation)
                }
                try POSIXFile.write(
                    operation.bytes,
                    to: descriptor,
                    at: operation.offset,
                    path: path(ofSegment: operation.segment)
                )
                written.insert(operation.segment)
                if operation.offset == 0 { directoryChanged = true }
            }
        }
        for segment in written.sorted() {
            try POSIXFile.sync(try descriptor(ofSegment: segment), path: path(ofSegment: segment))
        }
        if directoryChanged { try POSIXFile.sync(directoryDescriptor, path: directory) }
    }

    /// Reads bytes of a segment.
    mutating func read(segment: UInt64, range: Range<Int>) throws -> [UInt8] {
        let path = path(ofSegment: segment)
        let bytes = try POSIXFile.read(
            try descriptor(ofSegment: segment),
            at: range.lowerBound,
            count: range.count,
            path: path
        )
        guard bytes.count == range.count else {
            throw EventStoreError.ioFailed(path: path, reason: "the file ends before byte \(range.upperBound)")
        }
        return bytes
    }

    /// Reads a whole segment.
    mutating func readAll(segment: UInt64) throws -> [UInt8] {
        try POSIXFile.readAll(try descriptor(ofSegment: segment), path: path(ofSegment: segment))
    }

    /// Reads a whole file through a descriptor of its own, closed before returning: for reading segments on other
    /// threads while recovery holds the files.
    static func readAll(path: String) throws -> [UInt8] {
        let descriptor = try POSIXFile.open(path, create: false)
        defer { Foundation.close(descriptor) }
        return try POSIXFile.readAll(descriptor, path: path)
    }

    /// Cuts a segment short, to drop a torn tail.
    mutating func truncate(segment: UInt64, to length: Int) throws {
        try POSIXFile.truncate(try descriptor(ofSegment: segment), to: length, path: path(ofSegment: segment))
    }

    /// Deletes a segment file at once.
    mutating func delete(segment: UInt64) throws {
        try apply([JournalOperation(segment: segment, offset: 0, bytes: [], deletesSegment: true)])
    }

    /// Appends letters to the dead-letter file and makes them durable, within its cap.
    /// - Parameter payloads: Payloads made by ``DeadLetterFile/payload(event:reason:)``, oldest first.
    mutating func appendDeadLetters(_ payloads: [[UInt8]]) throws {
        try deadLetters.append(payloads, directoryDescriptor: directoryDescriptor)
    }

    /// Closes every file and releases the lock.
    mutating func close() {
        for descriptor in descriptors.values { Foundation.close(descriptor) }
        descriptors = [:]
        Foundation.close(directoryDescriptor)
        deadLetters.close()
        lock?.release()
        lock = nil
    }

    private mutating func descriptor(ofSegment number: UInt64, create: Bool = false) throws -> Int32 {
        if let descriptor = descriptors[number] { return descriptor }
        let descriptor = try POSIXFile.open(path(ofSegment: number), create: create)
        descriptors[number] = descriptor
        return descriptor
    }
}
