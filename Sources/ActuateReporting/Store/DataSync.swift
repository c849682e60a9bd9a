#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Forces written data of `descriptor` to stable storage, through the drive's write cache.
///
/// On Linux `fdatasync`, which makes the kernel flush the drive's cache too. On Darwin `fsync` only hands the data
/// to the drive, whose cache a power cut can still lose, so this is `fcntl(F_FULLFSYNC)` (as SQLite's `fullfsync`),
/// falling back to `fsync` where the file system refuses it (some network, FUSE and FAT file systems).
///
/// - Returns: `0` on success, `-1` with `errno` set on failure.
func journalDataSync(_ descriptor: Int32) -> Int32 {
    #if canImport(Darwin)
    return DurableSync.sync(descriptor, full: { fcntl($0, F_FULLFSYNC) }, fallback: { fsync($0) })
    #else
    return fdatasync(descriptor)
    #endif
}

/// Forces written data and metadata (a new size) of `descriptor` to stable storage: `fsync` on Linux, and on
/// Darwin `fcntl(F_FULLFSYNC)` with `fsync` as the fallback, as ``journalDataSync(_:)``.
///
/// - Returns: `0` on success, `-1` with `errno` set on failure.
func journalFileSync(_ descriptor: Int32) -> Int32 {
    #if canImport(Darwin)
    return DurableSync.sync(descriptor, full: { fcntl($0, F_FULLFSYNC) }, fallback: { fsync($0) })
    #else
    return fsync(descriptor)
    #endif
}

/// The rule that makes ``DurabilityMode/synced`` mean the same on every platform: ask for a sync through the
/// drive's cache, and when the file system refuses that, fall back to the ordinary sync rather than fail.
///
/// Portable so that the tests run it on Linux with stand-in calls; Darwin passes `fcntl(F_FULLFSYNC)` and `fsync`.
enum DurableSync {
    /// Runs `full`, then `fallback` when `full` fails for any reason other than an interruption.
    ///
    /// As SQLite does, any refusal of the full sync falls back: file systems answer `ENOTSUP`, `EINVAL` or
    /// `ENOTTY`, and a real I/O error fails the fallback too. An interrupted call (`EINTR`) is returned as it is,
    /// so the caller retries the full sync rather than settle for the weaker one.
    ///
    /// - Parameters:
    ///   - descriptor: An open file descriptor.
    ///   - full: The sync through the drive's cache; `0` on success, `-1` with `errno` set on failure.
    ///   - fallback: The ordinary sync, used when `full` is refused.
    /// - Returns: `0` on success, `-1` with `errno` set on failure.
    static func sync(_ descriptor: Int32, full: (Int32) -> Int32, fallback: (Int32) -> Int32) -> Int32 {
        if full(descriptor) == 0 { return 0 }
        if errno == EINTR { return -1 }
        return fallback(descriptor)
    }
}
