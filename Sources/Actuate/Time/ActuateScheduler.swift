import Foundation

/// The source of time and deferred work for everything in Actuate.
///
/// Nothing in Actuate reads the wall clock or starts a timer directly: the completion watchdog, sessions,
/// flush intervals and retry backoff all ask an `ActuateScheduler`. Apps use ``SystemScheduler``; tests use
/// `ActuateTesting.TestScheduler`, which advances virtual time by hand so that no test sleeps.
///
/// ```swift
/// let dispatcher = ActionDispatcher(scheduler: SystemScheduler.shared)
/// ```
public protocol ActuateScheduler: Sendable {
    /// The current wall-clock time, used for timestamps.
    func now() -> Date

    /// A monotonic reading, used for durations and deadlines.
    ///
    /// Its origin is arbitrary; only differences between two readings are meaningful.
    func uptime() -> Duration

    /// The monotonic reading of ``uptime()`` in whole nanoseconds, the one reading the dispatcher takes at the
    /// start and at the completion of every action.
    ///
    /// The default converts ``uptime()``; a scheduler with a cheaper native reading implements it directly.
    func uptimeNanoseconds() -> UInt64

    /// Runs `work` once, after `delay` has elapsed on this scheduler's clock.
    ///
    /// The work runs on a thread of the scheduler's choosing; it must hop to its own queue if it needs one.
    /// - Parameters:
    ///   - delay: How long to wait. Zero or negative delays run the work as soon as possible.
    ///   - work: The work to run.
    /// - Returns: A handle that cancels the work if it has not started.
    @discardableResult
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork

    /// Suspends the current task until `duration` has elapsed on this scheduler's clock.
    ///
    /// ``SystemScheduler`` sleeps for real (`Task.sleep`); `TestScheduler` wakes the sleeper when a test
    /// advances it past the deadline. The default implementation resumes from work scheduled with
    /// ``schedule(after:_:)``. For code that takes a `Clock`, use ``clock``.
    ///
    /// ```swift
    /// try await scheduler.sleep(for: .milliseconds(50))
    /// ```
    /// - Parameter duration: How long to sleep. Zero or negative durations return as soon as possible.
    /// - Throws: `CancellationError` when the task is cancelled before or while it sleeps; the scheduled
    ///   wake-up is then cancelled.
    func sleep(for duration: Duration) async throws
}

extension ActuateScheduler {
    public func sleep(for duration: Duration) async throws {
        try await SchedulerSleep.sleep(for: duration, on: self)
    }

    /// A `Clock` whose time is this scheduler's monotonic reading and whose sleeps are ``sleep(for:)``: hand it to
    /// code that takes `some Clock<Duration>`.
    public var clock: SchedulerClock { SchedulerClock(self) }

    public func uptimeNanoseconds() -> UInt64 {
        uptime().wholeNanoseconds
    }
}

/// A handle to work scheduled on an ``ActuateScheduler``.
public struct ScheduledWork: Sendable {
    private let cancellation: @Sendable () -> Void

    /// Creates a handle that runs `cancel` when ``cancel()`` is called.
    public init(cancel: @escaping @Sendable () -> Void) {
        self.cancellation = cancel
    }

    /// Cancels the work if it has not started yet. Calling it more than once has no further effect.
    public func cancel() {
        cancellation()
    }
}

extension Duration {
    /// This duration in seconds, as a `Double`.
    package var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// This duration as a `TimeInterval`, for Foundation APIs.
    package var timeInterval: TimeInterval { seconds }

    /// This duration in whole nanoseconds, rounded down; zero for a negative duration, `UInt64.max` for one too
    /// long to count.
    var wholeNanoseconds: UInt64 {
        let parts = components
        guard parts.seconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(parts.seconds).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .max }
        return whole.addingReportingOverflow(UInt64(parts.attoseconds / 1_000_000_000)).overflow
            ? .max : whole + UInt64(parts.attoseconds / 1_000_000_000)
    }
}
