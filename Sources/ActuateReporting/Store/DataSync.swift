#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Forces written data of `descriptor` to stable storage: `fdatasync` where it exists, `fsync` elsewhere.
///
/// - Returns: `0` on success, `-1` with `errno` set on failure.
func journalDataSync(_ descriptor: Int32) -> Int32 {
    #if canImport(Darwin)
    return fsync(descriptor)
    #else
    return fdatasync(descriptor)
    #endif
}
