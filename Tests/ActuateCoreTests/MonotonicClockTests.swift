import Testing

@testable import ActuateCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Monotonic clock")
struct MonotonicClockTests {
    /// A reading of the clock that keeps counting while the machine sleeps, in nanoseconds, read here on its own.
    private static func continuingClockNanoseconds() -> UInt64 {
        #if canImport(Glibc) || canImport(Musl)
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
        #elseif canImport(Darwin)
        return clock_gettime_nsec_np(CLOCK_MONOTONIC_RAW)
        #else
        return MonotonicClock.nanoseconds
        #endif
    }

    @Test("its readings, and the system scheduler's, are on the clock that keeps counting while the device sleeps")
    func readsTheClockThatCountsThroughSleep() {
        // On a machine that has been suspended, CLOCK_MONOTONIC (and Darwin's uptime, which DispatchTime reads)
        // lags CLOCK_BOOTTIME by the time asleep, and these brackets fail for a reading of the clock that stops.
        let before = Self.continuingClockNanoseconds()
        let reading = MonotonicClock.nanoseconds
        let between = Self.continuingClockNanoseconds()
        let scheduled = SystemScheduler.shared.uptimeNanoseconds()
        let uptime = SystemScheduler.shared.uptime()
        let after = Self.continuingClockNanoseconds()
        #expect(before <= reading && reading <= between)
        #expect(between <= scheduled && scheduled <= after)
        #expect(Duration.nanoseconds(Int64(between)) <= uptime && uptime <= Duration.nanoseconds(Int64(after)))
    }

    #if canImport(Glibc) || canImport(Musl)
    @Test("on Linux it reads CLOCK_BOOTTIME, which includes time suspended, not CLOCK_MONOTONIC, which stops")
    func linuxClockIsBootTime() {
        // This machine has never been suspended (the two clocks agree to the microsecond here), so the brackets
        // above cannot tell them apart; the clock's identity can.
        #expect(MonotonicClock.clockID == CLOCK_BOOTTIME)
        #expect(MonotonicClock.clockID != CLOCK_MONOTONIC)
    }
    #endif
}
