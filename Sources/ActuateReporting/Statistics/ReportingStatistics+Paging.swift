import Actuate
import Foundation

extension ReportingStatistics {
    /// The number of events read at a time by the paged initializers: 1,000.
    @usableFromInline package static let defaultPageSize = 1_000

    /// Computes statistics from the ``FileEventStore`` in `directory` page by page, without changing the
    /// directory and without holding all its events in memory.
    ///
    /// The journal files are copied to a temporary snapshot, which is read a page at a time, as
    /// ``init(store:attributionWindow:)`` reads a file store, and then deleted; the snapshot needs as much free
    /// disk space as the store takes. Because the copy is not locked, this works while an app has the store open;
    /// a record the app was writing during the copy is a torn tail in the snapshot, and skipped.
    ///
    /// - Parameters:
    ///   - directory: A ``FileEventStore`` directory.
    ///   - pageSize: The most events in memory at once (1,000 by default); at least 1.
    ///   - attributionWindow: How long after a product click a purchase of that product is credited to it (7 days
    ///     by default).
    /// Only regular files are copied, opened with `O_NOFOLLOW`: a journal name that is a symbolic link or any other
    /// kind of file is skipped, so the command never reads or changes what a link points to.
    ///
    /// - Throws: ``ReportingError/storeFailed(operation:reason:)`` when the directory does not exist, holds no
    ///   event journal, or cannot be copied or read.
    public init(
        fileStoreDirectory directory: URL,
        pageSize: Int = ReportingStatistics.defaultPageSize,
        attributionWindow: Duration = ReportingStatistics.defaultAttributionWindow
    ) throws(ReportingError) {
        var skipped: [String] = []
        try self.init(
            fileStoreDirectory: directory,
            pageSize: pageSize,
            attributionWindow: attributionWindow,
            seriesInterval: .day,
            skippedFiles: &skipped
        )
    }

    /// Computes statistics from the ``FileEventStore`` in `directory` as the public initializer does, and lists
    /// the journal names it left out because they are not regular files (a symbolic link, a directory, a FIFO):
    /// the snapshot never copies through a link, so a link named like a segment cannot make anything read, cut or
    /// empty the file it points to. Every event is also handed to `alsoReading`, in the same pass.
    package init(
        fileStoreDirectory directory: URL,
        pageSize: Int,
        attributionWindow: Duration,
        seriesInterval: SeriesInterval = .day,
        skippedFiles: inout [String],
        alsoReading: (ReportEvent) -> Void = { _ in }
    ) throws(ReportingError) {
        var builder = StatisticsBuilder(attributionWindow: attributionWindow, seriesInterval: seriesInterval)
        let deadLetters = try Self.forEachEvent(
            inFileStoreDirectory: directory,
            pageSize: pageSize,
            skippedFiles: &skippedFiles
        ) { event in
            builder.add(event)
            alsoReading(event)
        }
        self = builder.finish(deadLetterCount: deadLetters)
    }

    /// Hands every event of the ``FileEventStore`` in `directory` to `body`, oldest first, from a private snapshot
    /// read `pageSize` events at a time, and returns the store's dead-letter count; `skippedFiles` lists the journal
    /// names left out because they are not regular files.
    package static func forEachEvent(
        inFileStoreDirectory directory: URL,
        pageSize: Int,
        skippedFiles: inout [String],
        _ body: (ReportEvent) -> Void
    ) throws(ReportingError) -> Int {
        let snapshot = try StoreSnapshot(of: directory)
        skippedFiles = snapshot.skipped
        defer { snapshot.delete() }
        let store: FileEventStore
        do {
            store = try FileEventStore(
                directory: snapshot.directory,
                configuration: FileEventStoreConfiguration(
                    durability: .synced,
                    segmentSize: Int(Int32.max),
                    maxTotalBytes: Int.max
                )
            )
        } catch {
            throw .storeFailed(operation: "open a snapshot of \(directory.path)", reason: String(describing: error))
        }
        defer { try? store.close() }
        do {
            try store.forEachStoredEvent(pageSize: max(1, pageSize)) { body($0) }
            return try store.deadLetterCount()
        } catch {
            throw .storeFailed(operation: "read events for statistics", reason: String(describing: error))
        }
    }
}

/// A private copy of a file event store's journal files in a temporary directory.
///
/// Only regular files are copied; the names of the others are kept in ``skipped``.
private struct StoreSnapshot {
    let directory: URL
    /// Journal names that were not copied because they are not regular files.
    private(set) var skipped: [String] = []

    init(of source: URL) throws(ReportingError) {
        let manager = FileManager.default
        let path = source.path
        func failure(_ reason: String) -> ReportingError {
            .storeFailed(operation: "read the event store at \(path)", reason: reason)
        }
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw failure("there is no such directory")
        }
        guard isDirectory.boolValue else { throw failure("it is a file, not a store directory") }
        let journals: [String]
        do {
            journals = try manager.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".journal") }.sorted()
        } catch {
            throw failure(error.localizedDescription)
        }
        guard !journals.isEmpty else {
            throw failure("it holds no event journal (segment-*.journal or dead-letters.journal)")
        }
        directory = manager.temporaryDirectory.appendingPathComponent("actuate-statistics-\(UUID().uuidString)")
        do {
            try manager.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
            for name in journals {
                switch try Self.copyRegularFile(
                    from: source.appendingPathComponent(name).path,
                    to: directory.appendingPathComponent(name).path
                ) {
                case .copied:
                    continue
                case .missing:
                    // The app deleted a segment it no longer needed while we were copying: nothing to count.
                    continue
                case .notRegular:
                    skipped.append(name)
                }
            }
        } catch {
            delete()
            let reason = (error as? CopyError)?.description ?? error.localizedDescription
            throw failure("could not copy it to \(directory.path): \(reason)")
        }
    }

    func delete() {
        try? FileManager.default.removeItem(at: directory)
    }

    private enum CopyOutcome {
        case copied, missing, notRegular
    }

    private struct CopyError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "\(path): \(reason)" }
    }

    /// Copies `source` to a new owner-only file at `target` a megabyte at a time, if `source` is a regular file.
    ///
    /// The source is opened with `O_NOFOLLOW | O_NONBLOCK` (a FIFO cannot block the open) and checked with `fstat`
    /// on the open descriptor, so no link is followed and nothing swapped in after a check is read.
    private static func copyRegularFile(from source: String, to target: String) throws -> CopyOutcome {
        let input = open(source, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard input >= 0 else {
            switch errno {
            case ENOENT: return .missing
            case ELOOP: return .notRegular
            default: throw CopyError(path: source, reason: String(cString: strerror(errno)))
            }
        }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else {
            throw CopyError(path: source, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else { return .notRegular }
        let output: Int32
        do {
            output = try OwnerOnlyFile.create(target, flags: O_WRONLY)
        } catch {
            throw CopyError(path: target, reason: error.reason)
        }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = POSIXFile.readSome(input, into: &buffer)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw CopyError(path: source, reason: String(cString: strerror(errno))) }
            if count == 0 { return .copied }
            do {
                try OwnerOnlyFile.writeAll(buffer[..<count], to: output, path: target)
            } catch {
                throw CopyError(path: target, reason: error.reason)
            }
        }
    }
}
