import Actuate
import Foundation

/// An ``IdentityStorage`` that keeps the identity in a small JSON file in a directory.
///
/// The file is replaced atomically on every save and readable only by its owner. A file that exists but cannot
/// be decoded, or holds an empty anonymous id, is reported as ``ReportingError/corruptIdentity(path:reason:)``.
public struct FileIdentityStorage: IdentityStorage {
    /// The identity file.
    package let fileURL: URL

    /// Creates storage for `fileName` inside `directory`; the directory is created on first save.
    /// - Parameters:
    ///   - directory: The directory that holds the file.
    ///   - fileName: The file's name.
    public init(directory: URL, fileName: String = "identity.json") {
        fileURL = directory.appendingPathComponent(fileName, isDirectory: false)
    }

    /// The file's path.
    package var location: String { fileURL.path }

    /// Reads and validates the file.
    /// - Returns: The stored values, or nil when the file does not exist.
    /// - Throws: ``ReportingError/corruptIdentity(path:reason:)`` when it exists but is not a valid identity.
    public func load() throws(ReportingError) -> StoredIdentity? {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
        let data: Data
        do {
            // Through a FileHandle: Data(contentsOf:) leaks a 4 KiB buffer when the file is empty (Foundation on
            // Linux, Swift 6.3; see Tests/Sanitizers/FoundationLeaks.swift).
            let handle = try FileHandle(forReadingFrom: fileURL)
            defer { try? handle.close() }
            data = try handle.readToEnd() ?? Data()
        } catch {
            throw .corruptIdentity(path: location, reason: "unreadable: \(error.localizedDescription)")
        }
        let stored: StoredIdentity
        do {
            stored = try JSONDecoder().decode(FileFormat.self, from: data).identity
        } catch {
            throw .corruptIdentity(path: location, reason: "not a valid identity file (\(data.count) bytes)")
        }
        guard !stored.anonymousID.trimmingWhitespace().isEmpty else {
            throw .corruptIdentity(path: location, reason: "the anonymous id is empty")
        }
        return stored
    }

    /// Writes the file atomically, owner-only from the moment it exists (mode 0600, whatever the umask), creating
    /// the directory (0700) if needed.
    /// - Parameter identity: The values to store.
    /// - Throws: ``ReportingError/identityStorageFailed(path:reason:)`` when the file cannot be written.
    public func save(_ identity: StoredIdentity) throws(ReportingError) {
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            data = try encoder.encode(FileFormat(identity: identity))
        } catch {
            throw .identityStorageFailed(path: location, reason: error.localizedDescription)
        }
        do {
            // Never `Data.write(options: .atomic)` and a mode change after it: the file would be readable by
            // everyone between the two.
            try OwnerOnlyFile.write(data, to: fileURL)
        } catch {
            throw .identityStorageFailed(path: location, reason: error.reason)
        }
    }

    private struct FileFormat: Codable {
        var version = 1
        var anonymousID: String
        var userID: String?

        init(identity: StoredIdentity) {
            anonymousID = identity.anonymousID
            userID = identity.userID
        }

        var identity: StoredIdentity { StoredIdentity(anonymousID: anonymousID, userID: userID) }
    }
}
