import Actuate
import Foundation

/// Thin wrappers over the POSIX calls the journal uses, turning failures into ``EventStoreError`` values.
///
/// The reporting module's room for system calls that take buffers (see `OWNERSHIP.md`): callers hand it arrays,
/// never addresses. Every file it creates is created owner-only through the core's `OwnerOnlyFile`.
enum POSIXFile {
    /// The text of the current `errno`.
    static func lastError() -> String {
        String(cString: strerror(errno))
    }

    /// Opens `path` for reading and writing, creating it with owner-only permissions.
    ///
    /// The file is opened with `O_NOFOLLOW` and must be a regular file: a symbolic link (even a dangling one) or
    /// any other kind of file in its place is refused, never followed, so the store cannot be made to cut,
    /// overwrite or lock a file elsewhere.
    /// - Throws: ``EventStoreError/unsafeFile(path:reason:)`` for a link or a file that is not regular, and
    ///   ``EventStoreError/ioFailed(path:reason:)`` for other failures.
    static func open(_ path: String, create: Bool) throws -> Int32 {
        // Created owner-only (0600 whatever the umask) before anyone can open it.
        let descriptor = OwnerOnlyFile.open(path, flags: O_RDWR | O_CLOEXEC | O_NOFOLLOW, create: create)
        guard descriptor >= 0 else {
            if errno == ELOOP { throw EventStoreError.unsafeFile(path: path, reason: symbolicLinkRefusal) }
            if errno == EISDIR { throw EventStoreError.unsafeFile(path: path, reason: notRegularRefusal) }
            throw EventStoreError.ioFailed(path: path, reason: lastError())
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else {
            Foundation.close(descriptor)
            throw EventStoreError.unsafeFile(path: path, reason: notRegularRefusal)
        }
        return descriptor
    }

    /// Creates a new file at `path`, owner-only, for reading and writing: the file must not exist, and a link in its
    /// place is refused.
    /// - Throws: ``EventStoreError/ioFailed(path:reason:)`` when it cannot be created.
    static func create(_ path: String) throws -> Int32 {
        do {
            return try OwnerOnlyFile.create(path, flags: O_RDWR)
        } catch {
            throw EventStoreError.ioFailed(path: path, reason: error.reason)
        }
    }

    /// Why a directory, FIFO, socket or device in place of a store file is refused.
    static let notRegularRefusal = "it is not a regular file"

    /// Why a symbolic link is refused.
    static let symbolicLinkRefusal = "it is a symbolic link, which the store never follows"

    /// Opens a store directory with `O_DIRECTORY | O_NOFOLLOW` and checks that it is safe to keep events in.
    ///
    /// The directory must not be a symbolic link, must belong to the process's effective user, and must not be
    /// writable by its group or by others: anyone who can write to it could put a link in place of a journal
    /// file, or replace the files the store has written.
    /// - Throws: ``EventStoreError/unsafeFile(path:reason:)`` when it is refused, and
    ///   ``EventStoreError/directoryUnavailable(path:reason:)`` when it cannot be opened.
    static func openDirectory(_ path: String) throws -> (descriptor: Int32, info: stat) {
        let descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC | O_DIRECTORY | O_NOFOLLOW)
        guard descriptor >= 0 else {
            let reason = lastError()
            // Linux answers ENOTDIR for a link with O_DIRECTORY | O_NOFOLLOW, other systems ELOOP.
            var link = stat()
            if lstat(path, &link) == 0, link.st_mode & mode_t(S_IFMT) == mode_t(S_IFLNK) {
                throw EventStoreError.unsafeFile(path: path, reason: symbolicLinkRefusal)
            }
            throw EventStoreError.directoryUnavailable(path: path, reason: reason)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = lastError()
            Foundation.close(descriptor)
            throw EventStoreError.directoryUnavailable(path: path, reason: reason)
        }
        let user = geteuid()
        let problem: String? =
            if info.st_uid != user {
                "it belongs to user \(info.st_uid), not to this process's user \(user)"
            } else if info.st_mode & mode_t(S_IWGRP | S_IWOTH) != 0 {
                "it is writable by its group or by others (mode \(String(info.st_mode & 0o7777, radix: 8)))"
            } else {
                nil
            }
        if let problem {
            Foundation.close(descriptor)
            throw EventStoreError.unsafeFile(path: path, reason: problem)
        }
        return (descriptor, info)
    }

    /// The size of the open file.
    static func size(of descriptor: Int32, path: String) throws -> Int {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw EventStoreError.ioFailed(path: path, reason: lastError()) }
        return Int(info.st_size)
    }

    /// Writes all of `bytes` at `offset`.
    @inline(__always)
    static func write(_ bytes: some ContiguousBytes, to descriptor: Int32, at offset: Int, path: String) throws {
        try bytes.withUnsafeBytes { try write($0, to: descriptor, at: offset, path: path) }
    }

    /// Writes all of `bytes` at `offset`.
    static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int, path: String) throws {
        var written = 0
        while written < bytes.count {
            let result = pwrite(
                descriptor,
                bytes.baseAddress! + written,
                bytes.count - written,
                off_t(offset + written)
            )
            if result < 0 {
                if errno == EINTR { continue }
                throw EventStoreError.ioFailed(path: path, reason: lastError())
            }
            written += result
        }
    }

    /// Reads `count` bytes at `offset`, fewer only at the end of the file.
    static func read(_ descriptor: Int32, at offset: Int, count: Int, path: String) throws -> [UInt8] {
        // With a capacity of 0 the array initializer writes the count into the runtime's shared empty-array
        // storage, which concurrent empty reads (every store with an empty dead-letter file) race on.
        guard count > 0 else { return [] }
        return try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let result = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if result < 0 {
                    if errno == EINTR { continue }
                    initialized = done
                    throw EventStoreError.ioFailed(path: path, reason: lastError())
                }
                if result == 0 { break }
                done += result
            }
            initialized = done
        }
    }

    /// Reads up to `buffer.count` bytes at the descriptor's position into the start of `buffer`.
    /// - Returns: The number of bytes read, 0 at the end of the file, or -1 with `errno` set, as `read(2)`.
    static func readSome(_ descriptor: Int32, into buffer: inout [UInt8]) -> Int {
        buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
    }

    /// Reads the whole file.
    static func readAll(_ descriptor: Int32, path: String) throws -> [UInt8] {
        try read(descriptor, at: 0, count: size(of: descriptor, path: path), path: path)
    }

    /// Shortens the file to `length` bytes and makes that durable.
    static func truncate(_ descriptor: Int32, to length: Int, path: String) throws {
        guard ftruncate(descriptor, off_t(length)) == 0, journalFileSync(descriptor) == 0 else {
            throw EventStoreError.ioFailed(path: path, reason: lastError())
        }
    }

    /// Makes written data durable.
    static func sync(_ descriptor: Int32, path: String) throws {
        while journalDataSync(descriptor) != 0 {
            if errno == EINTR { continue }
            throw EventStoreError.ioFailed(path: path, reason: lastError())
        }
    }
}
