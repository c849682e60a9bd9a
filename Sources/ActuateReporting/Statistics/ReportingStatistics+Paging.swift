import Actuate
import Foundation

extension ReportingStatistics {
    /// The number of events read at a time by the paged initializers: 1,000.
    public static let defaultPageSize = 1_000

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
    ///   - pageSize: The most events in memory at once; at least 1.
    ///   - attributionWindow: How long after a product click a purchase of that product is credited to it.
    /// - Throws: ``ReportingError/storeFailed(operation:reason:)`` when the directory does not exist, holds no
    ///   event journal, or cannot be copied or read.
    public init(
        fileStoreDirectory directory: URL,
        pageSize: Int = ReportingStatistics.defaultPageSize,
        attributionWindow: Duration = ReportingStatistics.defaultAttributionWindow
    ) throws(ReportingError) {
        let snapshot = try StoreSnapshot(of: directory)
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
        try self.init(store: store, pageSize: max(1, pageSize), attributionWindow: attributionWindow)
    }
}

/// A private copy of a file event store's journal files in a temporary directory.
private struct StoreSnapshot {
    let directory: URL

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
                do {
                    try manager.copyItem(
                        at: source.appendingPathComponent(name),
                        to: directory.appendingPathComponent(name)
                    )
                } catch CocoaError.fileReadNoSuchFile, CocoaError.fileNoSuchFile {
                    // The app deleted a segment it no longer needed while we were copying: nothing to count.
                    continue
                }
            }
        } catch {
            delete()
            throw failure("could not copy it to \(directory.path): \(error.localizedDescription)")
        }
    }

    func delete() {
        try? FileManager.default.removeItem(at: directory)
    }
}
