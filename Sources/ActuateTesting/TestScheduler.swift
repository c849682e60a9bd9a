import Actuate
import Foundation
import Synchronization

/// An `ActuateScheduler` whose time only moves when a test moves it.
///
/// Work scheduled on it runs synchronously inside ``advance(by:)`` or ``run(limit:)``, on the calling thread, in
/// (deadline, scheduling order) order, and outside the scheduler's lock, so work may schedule more work.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let dispatcher = ActionDispatcher(scheduler: scheduler)
/// scheduler.advance(by: .seconds(10))   // fires the completion watchdog
/// ```
///
/// **Sleeping.** ``sleep(for:)`` suspends until an advance passes its deadline, and `ActuateScheduler.clock`
/// hands it to code that takes `some Clock<Duration>`. A body that an ``ActionTestHarness`` started keeps its own
/// virtual time: it starts at the scheduler's time when the harness started it, and moves to each sleep's
/// deadline when that sleep ends; everything a body does between sleeps takes no virtual time. So its next
/// sleep's deadline is fixed before the body even runs, and an advance made before the body reached that sleep
/// still wakes it: `start`, then `advance`, then `value()` never races the body's first wait, and no test needs
/// to wait for the body to register it.
public final class TestScheduler: ActuateScheduler {
    private struct Pending {
        var deadline: Duration
        var sequence: UInt64
        var work: @Sendable () -> Void
    }

    private struct State {
        var uptime: Duration = .zero
        var nextSequence: UInt64 = 0
        var pending: [UInt64: Pending] = [:]
        /// How many of the pending items wake a sleeper.
        var sleepers = 0
    }

    private let origin: Date
    private let state = Mutex(State())

    /// Creates a scheduler whose wall clock starts at `startDate` (2026-01-01T00:00:00Z by default).
    public init(startDate: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        self.origin = startDate
    }

    public func now() -> Date {
        origin.addingTimeInterval(uptime().seconds)
    }

    public func uptime() -> Duration {
        state.withLock { $0.uptime }
    }

    /// The amount of virtual time that has passed since the scheduler was created.
    public var elapsed: Duration { uptime() }

    /// The number of scheduled work items that have not run and were not cancelled.
    public var pendingCount: Int {
        state.withLock { $0.pending.count }
    }

    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let sequence = state.withLock { state -> UInt64 in
            let sequence = state.nextSequence
            state.nextSequence += 1
            let deadline = state.uptime + max(delay, .zero)
            state.pending[sequence] = Pending(deadline: deadline, sequence: sequence, work: work)
            return sequence
        }
        return ScheduledWork { [weak self] in
            _ = self?.state.withLock { $0.pending.removeValue(forKey: sequence) }
        }
    }

    /// Moves virtual time forward by `duration`, running every work item that falls due on the way, each at
    /// its own deadline.
    public func advance(by duration: Duration = .zero) {
        let target = state.withLock { $0.uptime } + max(duration, .zero)
        // The last take moves time to the target under the same lock that finds nothing left due, so that a sleep
        // registered meanwhile is either taken here or finds its deadline passed.
        while let next = takeNextDue(upTo: target) {
            next.work()
        }
    }

    /// Moves virtual time forward to `date` on the scheduler's wall clock.
    public func advance(to date: Date) {
        let delta = date.timeIntervalSince(now())
        advance(by: .nanoseconds(Int64(max(0, delta) * 1e9)))
    }

    /// Runs every pending work item, moving time forward as far as the last deadline.
    ///
    /// - Parameter limit: The most work items to run, a guard against work that reschedules itself forever.
    public func run(limit: Int = 10_000) {
        var remaining = limit
        while remaining > 0, let next = takeNextDue(upTo: nil) {
            next.work()
            remaining -= 1
        }
    }

    /// Suspends until an advance passes `duration` after now, or, in a body an ``ActionTestHarness`` started,
    /// after the body's own virtual time (see the type's notes on sleeping); a deadline already passed returns at
    /// once.
    ///
    /// - Parameter duration: How long to sleep, in virtual time.
    /// - Throws: `CancellationError` when the task is cancelled before or while it sleeps.
    public func sleep(for duration: Duration) async throws {
        let body = BodyClock.current(of: self)
        let deadline = (body?.now ?? uptime()) + max(duration, .zero)
        try await sleep(untilUptime: deadline, body: body)
        body?.woke(at: deadline)
    }

    /// The number of tasks sleeping on this scheduler.
    public var sleeperCount: Int { state.withLock { $0.sleepers } }

    private func sleep(untilUptime deadline: Duration, body: BodyClock?) async throws {
        try Task.checkCancellation()
        let sleeper = Sleeper()
        body?.sleeping(until: deadline)
        defer { body?.sleeping(until: nil) }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard sleeper.begin(continuation) else { return }
                let sequence = state.withLock { state -> UInt64? in
                    guard deadline > state.uptime else { return nil }
                    let sequence = state.nextSequence
                    state.nextSequence += 1
                    state.sleepers += 1
                    state.pending[sequence] = Pending(deadline: deadline, sequence: sequence) { [weak self] in
                        self?.state.withLock { $0.sleepers -= 1 }
                        sleeper.finish(.success(()))
                    }
                    return sequence
                }
                guard let sequence else { return sleeper.finish(.success(())) }
                sleeper.setCancel { [weak self] in
                    let removed = self?.state.withLock { state -> Bool in
                        guard state.pending.removeValue(forKey: sequence) != nil else { return false }
                        state.sleepers -= 1
                        return true
                    }
                    _ = removed
                }
            }
        } onCancel: {
            sleeper.cancel()
        }
    }

    private func takeNextDue(upTo target: Duration?) -> Pending? {
        state.withLock { state in
            let next = state.pending.values.min { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
            guard let next, target.map({ next.deadline <= $0 }) ?? true else {
                if let target { state.uptime = max(state.uptime, target) }
                return nil
            }
            state.pending.removeValue(forKey: next.sequence)
            state.uptime = max(state.uptime, next.deadline)
            return next
        }
    }
}
