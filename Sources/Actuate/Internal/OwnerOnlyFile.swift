import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one writer of every file the package creates: each file is readable and writable by its owner only (mode
/// 0600) from the moment it exists, and each directory it creates is 0700.
///
/// `Data.write(to:options: .atomic)` creates its temporary file with the process's umask, usually 0644, and renames
/// it into place; changing the mode afterwards leaves a moment in which the file is world-readable. Here a file is
/// created with `O_CREAT | O_EXCL | O_NOFOLLOW` and mode 0600, and the mode is forced with `fchmod` on the open
/// descriptor whatever the umask, before a byte is written; a replacement is such a temporary file, written,
/// synced and renamed over the target. So at no moment does the file, old or new, exist with wider permissions.
package enum OwnerOnlyFile {
    /// Why a file could not be written.
    package struct WriteError: Error, CustomStringConvertible {
        /// The file or directory the failing step worked on.
        package var path: String
        /// What failed, from the system's error.
        package var reason: String

        package var description: String { "writing \(path) failed: \(reason)" }
    }

    /// Called with the temporary file's path after it is written and synced, before it is renamed into place;
    /// for tests that look at the file no one else sees. Task-local, so a test's plugin hears only its own
    /// writes.
    @TaskLocal package static var willRename: (@Sendable (_ temporaryPath: String) -> Void)?

    /// Replaces the file at `url` with `data`, atomically, with mode 0600, creating missing directories 0700.
    /// - Throws: ``WriteError`` naming the step that failed.
    package static func write(_ data: Data, to url: URL) throws(WriteError) {
        let directory = url.deletingLastPathComponent()
        try createDirectory(directory)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        let descriptor = try create(temporary, flags: O_WRONLY)
        do throws(WriteError) {
            defer { close(descriptor) }
            try writeAll(data, to: descriptor, path: temporary)
            guard fsync(descriptor) == 0 else { throw WriteError(path: temporary, reason: lastError()) }
            willRename?(temporary)
        } catch {
            unlink(temporary)
            throw error
        }
        // rename replaces a symbolic link at `url` itself, never the file it points to.
        guard rename(temporary, url.path) == 0 else {
            let reason = lastError()
            unlink(temporary)
            throw WriteError(path: url.path, reason: reason)
        }
    }

    /// Creates a new file at `path`, owner-only, and opens it with `flags` (`O_WRONLY` or `O_RDWR`, and any of
    /// `O_APPEND`): the file must not exist, and a link in its place is refused.
    /// - Returns: The open descriptor, which the caller closes.
    /// - Throws: ``WriteError`` when the file exists or cannot be created.
    package static func create(_ path: String, flags: Int32) throws(WriteError) -> Int32 {
        let descriptor = Foundation.open(path, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw WriteError(path: path, reason: lastError()) }
        guard fchmod(descriptor, 0o600) == 0 else {
            let reason = lastError()
            close(descriptor)
            unlink(path)
            throw WriteError(path: path, reason: reason)
        }
        return descriptor
    }

    /// Opens the file at `path` with `flags` (without `O_CREAT`), creating it owner-only first when it does not
    /// exist and `create` is true. The caller adds `O_NOFOLLOW` and checks what it opened, as it needs.
    /// - Returns: The open descriptor, or -1 with `errno` set, as `open(2)`.
    package static func open(_ path: String, flags: Int32, create: Bool) -> Int32 {
        guard create else { return Foundation.open(path, flags) }
        // Created here: exclusively, so that only the creator forces the mode of a file no one else has opened.
        let created = Foundation.open(path, flags | O_CREAT | O_EXCL, 0o600)
        if created >= 0 {
            guard fchmod(created, 0o600) == 0 else {
                let saved = errno
                close(created)
                unlink(path)
                errno = saved
                return -1
            }
            return created
        }
        // Someone else's (or an earlier run's) file: opened as it is, never made wider.
        guard errno == EEXIST else { return -1 }
        return Foundation.open(path, flags)
    }

    /// Creates `directory` and its missing parents, mode 0700.
    /// - Throws: ``WriteError`` when it cannot be created.
    package static func createDirectory(_ directory: URL) throws(WriteError) {
        do {
            try FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw WriteError(path: directory.path, reason: error.localizedDescription)
        }
    }

    /// Writes all of `data` at the descriptor's position, retrying short and interrupted writes.
    /// - Throws: ``WriteError`` when a write fails.
    package static func writeAll(_ data: some ContiguousBytes, to descriptor: Int32, path: String) throws(WriteError) {
        let failure: WriteError? = data.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count {
                let result = Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return WriteError(path: path, reason: lastError())
                }
                written += result
            }
            return nil
        }
        if let failure { throw failure }
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
