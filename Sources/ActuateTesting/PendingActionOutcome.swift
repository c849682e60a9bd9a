import Actuate
import Dispatch
import Synchronization

/// The outcome of an action started with ``ActionTestHarness/start(_:input:presenter:userInitiated:source:)``,
/// available once it completes.
public final class PendingActionOutcome: Sendable {
    private struct State {
        var outcome: ActionPerformOutcome?
        var waiters: [CheckedContinuation<ActionPerformOutcome?, Never>] = []
    }

    private let state = Mutex(State())

    init() {}

    /// The outcome, if the action has completed.
    public var completedOutcome: ActionPerformOutcome? {
        state.withLock { $0.outcome }
    }

    /// Whether the action has completed.
    public var isCompleted: Bool { completedOutcome != nil }

    /// Waits for the outcome, at most `limit` of real time.
    /// - Returns: The outcome, or nil if the action did not complete in time.
    public func outcome(within limit: Duration = .seconds(5)) async -> ActionPerformOutcome? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> ActionPerformOutcome? in
                if let outcome = state.outcome { return outcome }
                state.waiters.append(continuation)
                return nil
            }
            if let ready {
                continuation.resume(returning: ready)
                return
            }
            let nanoseconds = Int(limit.components.seconds) * 1_000_000_000
                + Int(limit.components.attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
                timeOut()
            }
        }
    }

    func resolve(_ outcome: ActionPerformOutcome) {
        let waiters = state.withLock { state -> [CheckedContinuation<ActionPerformOutcome?, Never>] in
            guard state.outcome == nil else { return [] }
            state.outcome = outcome
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    private func timeOut() {
        let waiters = state.withLock { state -> [CheckedContinuation<ActionPerformOutcome?, Never>] in
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }
}
