#if canImport(Darwin)
import Darwin
#endif

/// Reserves a file's disk blocks ahead of its writes, without changing its size.
///
/// A write that extends a file into blocks it does not have yet makes the file system allocate them, and the sync
/// that follows must then write the allocation's metadata as well as the data. Reserved blocks are allocated
/// already, so syncing a write into them writes the data and the new size only. The event journal reserves each
/// segment when it creates it: its synced appends then sync faster, one thread or several.
///
/// On 64-bit Linux this is `fallocate` with `FALLOC_FL_KEEP_SIZE`; on Darwin `fcntl(F_PREALLOCATE)`, which
/// allocates without changing the size too (contiguous blocks if it can, any blocks otherwise). Elsewhere, or on
/// a file system that cannot reserve, nothing is reserved and nothing changes.
package enum FileSpaceReservation {
    /// Reserves the first `byteCount` bytes of the file open as `descriptor`, keeping its size.
    ///
    /// - Parameters:
    ///   - descriptor: An open, writable file descriptor.
    ///   - byteCount: How many bytes from the start of the file to reserve; nothing is reserved unless positive.
    /// - Returns: Whether the blocks are reserved.
    @discardableResult
    package static func reserve(descriptor: Int32, byteCount: Int) -> Bool {
        guard byteCount > 0 else { return false }
        #if os(Linux) && (arch(x86_64) || arch(arm64))
        return linuxFallocate(descriptor, fallocateKeepSize, 0, byteCount) == 0
        #elseif canImport(Darwin)
        // From the physical end of the file, which is its start for the new, empty segments the journal reserves.
        var request = fstore_t(
            fst_flags: UInt32(F_ALLOCATECONTIG | F_ALLOCATEALL),
            fst_posmode: F_PEOFPOSMODE,
            fst_offset: 0,
            fst_length: off_t(byteCount),
            fst_bytesalloc: 0
        )
        if fcntl(descriptor, F_PREALLOCATE, &request) != -1 { return true }
        request.fst_flags = UInt32(F_ALLOCATEALL)
        return fcntl(descriptor, F_PREALLOCATE, &request) != -1
        #else
        return false
        #endif
    }
}

#if os(Linux) && (arch(x86_64) || arch(arm64))
/// `FALLOC_FL_KEEP_SIZE` from `<linux/falloc.h>`: reserve blocks without changing the file's size.
private let fallocateKeepSize: Int32 = 1

/// Linux's `fallocate(int fd, int mode, off_t offset, off_t len)`.
///
/// Bound by symbol name: Glibc declares it only under `_GNU_SOURCE`, which the Swift overlay does not define. It
/// takes integers and returns one, which Swift's calling convention passes in the same registers as the C one on
/// 64-bit Linux, where `off_t` is 64 bits wide like `Int`.
@_silgen_name("fallocate")
private func linuxFallocate(_ descriptor: Int32, _ mode: Int32, _ offset: Int, _ length: Int) -> Int32
#endif
