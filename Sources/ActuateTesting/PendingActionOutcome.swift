import Actuate
import Dispatch
import Synchronization

/// The outcome of an action started with ``ActionTestHarness/start(_:input:presenter:userInitiated:source:sourceLocation:)``,
/// available once it completes.
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
    private let state = Mutex(State())

    init(actionName: String, queue: DispatchQueue, bodyReturnAllowance: Duration) {
        self.actionName = actionName
        self.queue = queue
        self.bodyReturnAllowance = bodyReturnAllowance
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
