import Foundation

/// An exclusive lock on a store directory, held through `flock` on its `lock` file.
///
/// `flock` locks belong to an open file description, so a second open of the same file conflicts with the
/// first whether it comes from another process or from this one. The descriptor is opened with `O_CLOEXEC`
/// so that child processes never inherit the lock. The holder writes its process id into the file, so the
/// error can name it.
struct StoreLock: Sendable {
    /// The name of the lock file in the store directory.
    static let fileName = "lock"

    private let descriptor: Int32

    /// Takes the lock, or throws if anyone holds it.
    ///
    /// - Throws: ``EventStoreError/lockedByAnotherProcess(directory:ownerPID:)`` when the lock is held, and
    ///   ``EventStoreError/directoryUnavailable(path:reason:)`` when the lock file cannot be opened.
    init(directory: String) throws {
        let path = directory + "/" + Self.fileName
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw EventStoreError.directoryUnavailable(path: directory, reason: POSIXFile.lastError())
        }
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let lockError = errno
            let owner = (try? POSIXFile.read(descriptor, at: 0, count: 32, path: path))
                .flatMap { String(decoding: $0, as: UTF8.self).split(separator: "\n").first }
                .flatMap { Int32($0) }
            close(descriptor)
            if lockError == EWOULDBLOCK {
                throw EventStoreError.lockedByAnotherProcess(directory: directory, ownerPID: owner)
            }
            throw EventStoreError.ioFailed(path: path, reason: String(cString: strerror(lockError)))
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        try? pid.withUnsafeBytes { try POSIXFile.write($0, to: descriptor, at: 0, path: path) }
        self.descriptor = descriptor
    }

    /// Releases the lock.
    func release() {
        close(descriptor)
    }
}
