#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's monotonic clock that keeps counting while the device sleeps, in nanoseconds: the clock Swift's
/// `ContinuousClock` reads, read directly.
///
/// Session limits (90 minutes, the inactivity timeout), display suppression and every other duration the docs state
/// in minutes or hours are measured on it, so a phone locked for two hours comes back to a new session. Linux reads
/// `CLOCK_BOOTTIME` and Darwin `CLOCK_MONOTONIC_RAW` (`mach_continuous_time` in nanoseconds), both counting through
/// suspension, unlike `CLOCK_MONOTONIC` on Linux and `DispatchTime`'s uptime on Darwin, which stop. Elsewhere it
/// falls back to `ContinuousClock`.
///
/// A direct `clock_gettime` costs the same as libdispatch's reading of `CLOCK_MONOTONIC` without its range checks
/// (about 55 instructions fewer per reading, two of which every dispatch that a plugin hears takes). Every reading
/// of ``SystemScheduler`` and of a dispatcher on it goes through here, so they all agree.
@usableFromInline
enum MonotonicClock {
    #if canImport(Glibc) || canImport(Musl)
    /// The clock read: `CLOCK_BOOTTIME`, Linux's monotonic clock that includes time suspended.
    @inlinable
    static var clockID: clockid_t { CLOCK_BOOTTIME }
    #endif

    /// The clock's reading now, in nanoseconds.
    @inlinable
    static var nanoseconds: UInt64 {
        #if canImport(Glibc) || canImport(Musl)
        var time = timespec()
        clock_gettime(clockID, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
        #elseif canImport(Darwin)
        return clock_gettime_nsec_np(CLOCK_MONOTONIC_RAW)
        #else
        let elapsed = ContinuousClock.now - continuousOrigin
        return UInt64(elapsed.components.seconds) &* 1_000_000_000
            &+ UInt64(elapsed.components.attoseconds / 1_000_000_000)
        #endif
    }

    #if !(canImport(Glibc) || canImport(Musl) || canImport(Darwin))
    /// The origin of readings where they come from `ContinuousClock`.
    @usableFromInline
    static let continuousOrigin = ContinuousClock.now
    #endif
}
