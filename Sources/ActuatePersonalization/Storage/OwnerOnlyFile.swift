import Foundation

/// Writes the personalization files (tracker state and result, content-block history) readable and writable by
/// their owner only, as the reporting module's files are.
///
/// `Data.write(to:options: .atomic)` creates its temporary file with the process's umask, usually 0644, and renames
/// it into place, so every replacement would be world-readable. Here the temporary file is created with
/// `O_EXCL | O_NOFOLLOW` and mode 0600 (forced with `fchmod` whatever the umask), written, synced and renamed over
/// the target: at no moment does the file, old or new, exist with wider permissions. Missing directories are
/// created 0700.
enum OwnerOnlyFile {
    /// Why a file could not be written.
    struct WriteError: Error, CustomStringConvertible {
        var path: String
        var reason: String

        var description: String { "writing \(path) failed: \(reason)" }
    }

    /// Replaces the file at `url` with `data`, atomically, with mode 0600.
    /// - Throws: ``WriteError`` naming the step that failed.
    static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw WriteError(path: directory.path, reason: error.localizedDescription)
        }
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw WriteError(path: temporary, reason: lastError()) }
        do {
            defer { close(descriptor) }
            guard fchmod(descriptor, 0o600) == 0 else { throw WriteError(path: temporary, reason: lastError()) }
            try data.withUnsafeBytes { bytes in
                var written = 0
                while written < bytes.count {
                    let result = Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                    if result < 0 {
                        if errno == EINTR { continue }
                        throw WriteError(path: temporary, reason: lastError())
                    }
                    written += result
                }
            }
            guard fsync(descriptor) == 0 else { throw WriteError(path: temporary, reason: lastError()) }
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

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
