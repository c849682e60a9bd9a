import Actuate
import Dispatch
import Synchronization
import Testing

/// An action started with ``ActionTestHarness/start(_:input:presenter:userInitiated:source:sourceLocation:)``: its
/// outcome once it completes, and a way to cancel it.
///
/// <!-- readme: repeats Sources/ActuateTesting/ActuateTesting.docc/DependenciesAndVirtualTime.md -->
/// ```swift
///     let sync = harness.start(NotesFeature.sync, input: "Buy milk", presenter: notes)
///     harness.scheduler.advance(by: .milliseconds(50))
///     #expect(await sync.value().isSuccess)
/// ```
public final class PendingActionOutcome: Sendable {
    private struct State {
        var outcome: ActionPerformOutcome?
        var requestID: UInt64?
        var waiters: [UInt64: CheckedContinuation<ActionPerformOutcome?, Never>] = [:]
        var nextWaiter: UInt64 = 0
        var queueDrained = false
    }

    /// The display name of the action.
    public let actionName: String
    /// The action's queue: the real-time limit counts from the moment it has run the action's body.
    private let queue: DispatchQueue
    /// How much longer than its limit a wait lasts in all, for a body that never returns.
    private let bodyReturnAllowance: Duration
    /// The harness's limit for ``value(sourceLocation:)``.
    private let realTimeLimit: Duration
    /// Whether the action's body is `async` (an `AsyncAction` or `UIAction`), for the message of one that never
    /// finishes.
    private let hasAsyncBody: Bool
    /// Cancels the perform.
    private let cancellation: PerformCancellation
    /// The body's virtual time on the harness's scheduler.
    let bodyClock: BodyClock
    private let state = Mutex(State())

    init(
        actionName: String,
        queue: DispatchQueue,
        hasAsyncBody: Bool,
        realTimeLimit: Duration,
        bodyReturnAllowance: Duration,
        bodyClock: BodyClock,
        cancellation: PerformCancellation
    ) {
        self.actionName = actionName
        self.queue = queue
        self.hasAsyncBody = hasAsyncBody
        self.realTimeLimit = realTimeLimit
        self.bodyReturnAllowance = bodyReturnAllowance
        self.bodyClock = bodyClock
        self.cancellation = cancellation
    }

    /// Cancels the action, as cancelling the task that awaits a perform does: an async body is cancelled (a
    /// sleep on the harness's scheduler throws `CancellationError`, and the outcome is a failure with
    /// `ActionCancellationError`), or does not start; a callback body sees `ActionContext/isCancelled`.
    public func cancel() {
        cancellation.cancel()
    }

    /// Waits for the outcome, failing the test with a message that says why when the action never completes.
    ///
    /// The wait ends `realTimeLimit` of real time (the harness's; 5 seconds by default) after the body returned.
    /// When the body does not complete, the message says what it waits for: a sleep on the harness's scheduler
    /// that no one advanced, an `await` in an async body that never resumed, or a callback body's
    /// `willCompleteAsync()` status that was never completed.
    /// Then the action is cancelled, so that an async body waiting forever does not keep later bodies of its queue
    /// from starting.
    /// - Parameter sourceLocation: Where to report the failure.
    /// - Returns: The outcome, or a failure with ``ActionNeverCompletedError``.
    public func value(sourceLocation: SourceLocation = #_sourceLocation) async -> ActionPerformOutcome {
        if let outcome = await outcome(within: realTimeLimit) { return outcome }
        // Read once: the body may still return while this reports.
        let bodyReturned = queueDrained
        Issue.record(
            Comment(rawValue: neverCompletedMessage(bodyReturned: bodyReturned)),
            sourceLocation: sourceLocation
        )
        // An async body that waits forever would hold its queue's gate, and keep every later body of that queue,
        // in this test or another, from starting.
        cancel()
        return .failure(
            error: ActionNeverCompletedError(
                actionName: actionName,
                requestID: requestID,
                limit: bodyReturned ? realTimeLimit : realTimeLimit + bodyReturnAllowance
            )
        )
    }

    /// What the test is told about an action that never completed.
    func neverCompletedMessage(bodyReturned: Bool) -> String {
        let name = actionName
        guard bodyReturned else {
            return """
                '\(name)' never completed: its queue had not run its body after \(realTimeLimit + bodyReturnAllowance) \
                of real time. The body, or work queued ahead of it, blocks the queue: it waits for something that \
                never happens.
                """
        }
        if let deadline = bodyClock.sleepingUntil {
            let now = bodyClock.scheduler.uptime()
            return """
                '\(name)' never completed: its body sleeps on the test scheduler until \(deadline) of virtual time, \
                and the scheduler stands at \(now); nobody advanced it. Start the action with `start(...)`, call \
                `scheduler.advance(by: \(deadline - now))`, then await `value()`.
                """
        }
        if hasAsyncBody {
            return """
                '\(name)' never completed within \(realTimeLimit) of real time: its async body is suspended in an \
                `await` that never resumed. Make what it awaits finish (a fake dependency that never answers, a \
                continuation never resumed), or cancel it with `cancel()` on the handle `start(...)` returns.
                """
        }
        return """
            '\(name)' never completed within \(realTimeLimit) of real time after its body returned. Its body \
            returned `completion.willCompleteAsync()` but `completed(_:)` was never called on that status. \
            Complete it on every path (errors and early returns included), or, if it waits for virtual time, \
            use `start(...)` and advance `scheduler` before awaiting `value()`.
            """
    }

    /// The `ActionRequest/uniqueID` of the request, or nil if the feature never declared the action.
    package var requestID: UInt64? { state.withLock { $0.requestID } }

    /// The outcome, if the action has completed.
    public var completedOutcome: ActionPerformOutcome? {
        state.withLock { $0.outcome }
    }

    /// Whether the action's queue has run its body: a wait's marker, queued after the body, has run.
    package var queueDrained: Bool { state.withLock { $0.queueDrained } }

    /// Whether the action has completed.
    package var isCompleted: Bool { completedOutcome != nil }

    /// Waits for the outcome, at most `limit` of real time after the action's body has returned.
    ///
    /// The limit is a safety net that keeps a broken action from hanging the test run; the outcome arrives as
    /// soon as the action completes. It counts from the moment the action's queue has run everything queued
    /// before this call, the action's body included, so a queue busy with other work, or a machine too loaded to
    /// give it a thread, does not fail an action that did nothing wrong. A body that never returns ends the wait
    /// two minutes after `limit`.
    /// - Parameter limit: The most real time to wait once the body has returned. The default is 5 seconds.
    /// - Returns: The outcome, or nil if the action did not complete in time.
    public func outcome(within limit: Duration = .seconds(5)) async -> ActionPerformOutcome? {
        await waitForOutcome { [self] giveUp in
            queue.async { [weak self] in
                self?.state.withLock { $0.queueDrained = true }
                DispatchQueue.global().asyncAfter(deadline: .now() + limit.timeInterval, execute: giveUp)
            }
            DispatchQueue.global().asyncAfter(
                deadline: .now() + (limit + bodyReturnAllowance).timeInterval,
                execute: giveUp
            )
        }
    }

    /// Waits for the outcome, or nil once the closure that `armTimers` is given is called.
    private func waitForOutcome(
        armTimers: (_ giveUp: @escaping @Sendable () -> Void) -> Void
    ) async -> ActionPerformOutcome? {
        await withCheckedContinuation { continuation in
            let waiter = state.withLock { state -> UInt64? in
                if state.outcome != nil { return nil }
                state.nextWaiter += 1
                state.waiters[state.nextWaiter] = continuation
                return state.nextWaiter
            }
            guard let waiter else {
                continuation.resume(returning: completedOutcome)
                return
            }
            // Weakly: a timer outlives the wait by up to its whole limit, and must not keep this outcome, and the
            // error it may hold, alive that long (the leak checker reports an error held past the end of the run,
            // since an outcome stores it as a tagged pointer it does not recognise).
            armTimers { [weak self] in self?.giveUp(waiter) }
        }
    }

    func identify(_ requestID: UInt64?) {
        state.withLock { $0.requestID = requestID }
    }

    func resolve(_ outcome: ActionPerformOutcome) {
        let waiters = state.withLock { state -> [CheckedContinuation<ActionPerformOutcome?, Never>] in
            guard state.outcome == nil else { return [] }
            state.outcome = outcome
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// Resumes one waiter with nil, if it is still waiting: a timer that fires after its wait ended does nothing.
    private func giveUp(_ waiter: UInt64) {
        state.withLock { $0.waiters.removeValue(forKey: waiter) }?.resume(returning: nil)
    }
}
