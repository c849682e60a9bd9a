import Foundation
import Synchronization

/// An exclusive lock on a store directory: a POSIX record lock on its `lock` file against other processes, and
/// a registry of locked directories against other stores in this process.
///
/// Why a record lock (`fcntl(F_SETLK)`) and not `flock` or an open-file-description lock (`F_OFD_SETLK`): those
/// two belong to the open file description, which a child process shares from `fork` until `exec`, even with
/// `O_CLOEXEC`. While another thread starts a child process, a store that is closed and reopened would find its
/// own lock still held by the child and be refused. A record lock belongs to the process and is never inherited
/// by a child, so only another process holding the store can refuse it.
///
/// A record lock has two traps, both closed here. It does not conflict with other locks of the same process, so
/// a process-wide registry of locked directories, keyed by device and inode so that another path to the same
/// directory is caught too, refuses a second store in this process. And closing *any* descriptor of the lock
/// file in this process releases the lock, so the file is opened only by the one store that holds the registry
/// entry, and closed only under the registry's lock.
///
/// The holder writes its process id into the file, so the error can name it.
struct StoreLock: Sendable {
    /// The name of the lock file in the store directory.
    static let fileName = "lock"

    /// A directory's identity: device and inode.
    private struct DirectoryKey: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// The directories this process holds a store lock on.
    private static let held = Mutex<Set<DirectoryKey>>([])

    private let descriptor: Int32
    private let key: DirectoryKey

    /// Takes the lock, or throws if anyone holds it.
    ///
    /// - Throws: ``EventStoreError/lockedByAnotherProcess(directory:ownerPID:)`` when the lock is held (naming
    ///   this process when another store in it holds the directory),
    ///   ``EventStoreError/unsafeFile(path:reason:)`` when the directory or the lock file is refused (see
    ///   ``POSIXFile/openDirectory(_:)``), and ``EventStoreError/directoryUnavailable(path:reason:)`` when the
    ///   lock file cannot be opened.
    init(directory: String) throws {
        let (directoryDescriptor, info) = try POSIXFile.openDirectory(directory)
        close(directoryDescriptor)
        let key = DirectoryKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        self.key = key
        self.descriptor = try Self.held.withLock { held in
            guard !held.contains(key) else {
                throw EventStoreError.lockedByAnotherProcess(directory: directory, ownerPID: getpid())
            }
            let descriptor = try Self.lockFile(in: directory)
            held.insert(key)
            return descriptor
        }
    }

    /// Releases the lock.
    func release() {
        Self.held.withLock { held in
            close(descriptor)
            held.remove(key)
        }
    }

    /// Opens the lock file and takes a record lock on it; called only while this process holds no lock on it.
    private static func lockFile(in directory: String) throws -> Int32 {
        let path = directory + "/" + fileName
        let descriptor: Int32
        do {
            descriptor = try POSIXFile.open(path, create: true)
        } catch EventStoreError.ioFailed(_, let reason) {
            throw EventStoreError.directoryUnavailable(path: directory, reason: reason)
        }
        var request = flock()
        request.l_type = Int16(F_WRLCK)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = 0
        request.l_len = 0  // the whole file, however long
        var result: Int32
        repeat { result = fcntl(descriptor, F_SETLK, &request) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let lockError = errno
            let owner = (try? POSIXFile.read(descriptor, at: 0, count: 32, path: path))
                .flatMap { String(decoding: $0, as: UTF8.self).split(separator: "\n").first }
                .flatMap { Int32($0) }
            // Safe to close: this process holds no record lock on the file, so closing releases nothing.
            close(descriptor)
            if lockError == EAGAIN || lockError == EACCES {
                throw EventStoreError.lockedByAnotherProcess(directory: directory, ownerPID: owner)
            }
            throw EventStoreError.ioFailed(path: path, reason: String(cString: strerror(lockError)))
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        try? POSIXFile.write(pid, to: descriptor, at: 0, path: path)
        return descriptor
    }
}
