/// An ``ActuateScheduler`` seen as a Swift `Clock`, for code that takes `some Clock<Duration>`.
///
/// Its instants are the scheduler's monotonic readings, and it sleeps with ``ActuateScheduler/sleep(for:)``: on
/// `SystemScheduler` for real, on a `TestScheduler` until the test advances it.
///
/// ```swift
/// func retry(on clock: some Clock<Duration>) async throws {
///     try await clock.sleep(for: .seconds(1))
/// }
///
/// try await retry(on: SystemScheduler.shared.clock)
/// ```
public struct SchedulerClock: Clock {
    /// A reading of the scheduler's monotonic clock.
    public struct Instant: InstantProtocol {
        /// The reading: the scheduler's ``ActuateScheduler/uptime()``.
        public var uptime: Duration

        /// Creates the instant at `uptime`.
        ///
        /// - Parameter uptime: A reading of ``ActuateScheduler/uptime()``.
        public init(uptime: Duration) {
            self.uptime = uptime
        }

        public func advanced(by duration: Duration) -> Instant {
            Instant(uptime: uptime + duration)
        }

        public func duration(to other: Instant) -> Duration {
            other.uptime - uptime
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.uptime < rhs.uptime
        }
    }

    /// The scheduler.
    public let scheduler: any ActuateScheduler

    /// Creates the clock of `scheduler`.
    ///
    /// - Parameter scheduler: The scheduler whose time and sleeps the clock uses.
    public init(_ scheduler: any ActuateScheduler) {
        self.scheduler = scheduler
    }

    public var now: Instant { Instant(uptime: scheduler.uptime()) }

    public var minimumResolution: Duration { .nanoseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await scheduler.sleep(for: now.duration(to: deadline))
    }
}
