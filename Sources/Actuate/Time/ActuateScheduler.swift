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

    /// Runs `work` once, after `delay` has elapsed on this scheduler's clock.
    ///
    /// The work runs on a thread of the scheduler's choosing; it must hop to its own queue if it needs one.
    /// - Parameters:
    ///   - delay: How long to wait. Zero or negative delays run the work as soon as possible.
    ///   - work: The work to run.
    /// - Returns: A handle that cancels the work if it has not started.
    @discardableResult
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork
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
    public var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// This duration as a `TimeInterval`, for Foundation APIs.
    public var timeInterval: TimeInterval { seconds }
}
