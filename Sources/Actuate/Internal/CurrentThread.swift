#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The identity of the current thread, for ``RequestOperation``'s request loan: equal for two reads on
/// one thread, different on two threads that are alive at once, never zero.
@usableFromInline
enum CurrentThread {
    /// The current thread's `pthread_self()`, as a number.
    @inlinable
    static var id: UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }
}
