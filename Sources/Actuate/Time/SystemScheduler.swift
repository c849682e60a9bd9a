import Dispatch
import Foundation
import Synchronization

/// The real ``ActuateScheduler``: the system clock and Dispatch timers.
///
/// ``uptime()`` keeps counting while the device sleeps (`CLOCK_BOOTTIME` on Linux, `mach_continuous_time` on
/// Darwin, as Swift's `ContinuousClock`), so sessions, suppression and every other limit stated in minutes or hours
/// include time asleep. ``now()`` is the wall clock, for timestamps.
public struct SystemScheduler: ActuateScheduler {
    /// The process-wide system scheduler.
    public static let shared = SystemScheduler()

    private let queue: DispatchQueue

    /// Creates a scheduler whose deferred work runs on `queue` (a global queue by default).
    init(queue: DispatchQueue = .global(qos: .utility)) {
        self.queue = queue
    }

    public func now() -> Date {
        Date()
    }

    public func uptime() -> Duration {
        .nanoseconds(Int64(bitPattern: MonotonicClock.nanoseconds))
    }

    public func uptimeNanoseconds() -> UInt64 {
        MonotonicClock.nanoseconds
    }

    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let cancelled = CancellationFlag()
        let nanoseconds = max(
            0,
            Int(clamping: delay.components.seconds) &* 1_000_000_000
                &+ Int(delay.components.attoseconds / 1_000_000_000)
        )
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            if !cancelled.isSet { work() }
        }
        return ScheduledWork { cancelled.set() }
    }

    /// Sleeps for real, with `Task.sleep(for:)`.
    ///
    /// - Parameter duration: How long to sleep.
    /// - Throws: `CancellationError` when the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}

/// A one-way flag that any thread may set and read.
final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    var isSet: Bool { flag.load(ordering: .acquiring) }

    func set() { flag.store(true, ordering: .releasing) }
}
