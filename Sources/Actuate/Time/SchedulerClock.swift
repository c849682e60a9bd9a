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

        /// The instant `duration` later.
        ///
        /// - Parameter duration: How far to move; negative moves back.
        /// - Returns: The instant.
        public func advanced(by duration: Duration) -> Instant {
            Instant(uptime: uptime + duration)
        }

        /// How long from this instant to `other`; negative when `other` is earlier.
        ///
        /// - Parameter other: The other instant.
        /// - Returns: The duration.
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

    /// The scheduler's time now: on a `TestScheduler`, virtual time.
    public var now: Instant { Instant(uptime: scheduler.uptime()) }

    /// The finest step the clock measures: a nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends until `deadline` on the scheduler (until an advance passes it, on a `TestScheduler`).
    ///
    /// - Parameters:
    ///   - deadline: When to resume.
    ///   - tolerance: Ignored: the scheduler decides how precisely it wakes.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await scheduler.sleep(for: now.duration(to: deadline))
    }
}
