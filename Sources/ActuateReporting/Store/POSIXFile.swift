import Foundation

/// Thin wrappers over the POSIX calls the journal uses, turning failures into ``EventStoreError`` values.
enum POSIXFile {
    /// The text of the current `errno`.
    static func lastError() -> String {
        String(cString: strerror(errno))
    }

    /// Opens `path` for reading and writing, creating it with owner-only permissions.
    static func open(_ path: String, create: Bool) throws -> Int32 {
        let flags = O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0)
        let descriptor = Foundation.open(path, flags, 0o600)
        guard descriptor >= 0 else { throw EventStoreError.ioFailed(path: path, reason: lastError()) }
        return descriptor
    }

    /// The size of the open file.
    static func size(of descriptor: Int32, path: String) throws -> Int {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw EventStoreError.ioFailed(path: path, reason: lastError()) }
        return Int(info.st_size)
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

    /// Reads the whole file.
    static func readAll(_ descriptor: Int32, path: String) throws -> [UInt8] {
        try read(descriptor, at: 0, count: size(of: descriptor, path: path), path: path)
    }

    /// Shortens the file to `length` bytes and makes that durable.
    static func truncate(_ descriptor: Int32, to length: Int, path: String) throws {
        guard ftruncate(descriptor, off_t(length)) == 0, fsync(descriptor) == 0 else {
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
