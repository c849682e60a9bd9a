import Actuate
import Dispatch
import Synchronization

/// The outcome of an action started with ``ActionTestHarness/start(_:input:presenter:userInitiated:source:sourceLocation:)``,
/// available once it completes.
public final class PendingActionOutcome: Sendable {
    private struct State {
        var outcome: ActionPerformOutcome?
        var requestID: UInt64?
        var waiters: [CheckedContinuation<ActionPerformOutcome?, Never>] = []
    }

    /// The display name of the action.
    public let actionName: String
    private let state = Mutex(State())

    init(actionName: String) {
        self.actionName = actionName
    }

    /// The `ActionRequest/uniqueID` of the request, or nil if the feature never declared the action.
    package var requestID: UInt64? { state.withLock { $0.requestID } }

    /// The outcome, if the action has completed.
    public var completedOutcome: ActionPerformOutcome? {
        state.withLock { $0.outcome }
    }

    /// Whether the action has completed.
    package var isCompleted: Bool { completedOutcome != nil }

    /// Waits for the outcome, at most `limit` of real time.
    ///
    /// The limit is a safety net that keeps a broken action from hanging the test run; the outcome arrives as
    /// soon as the action completes.
    /// - Parameter limit: The most real time to wait. The default is 5 seconds.
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
            DispatchQueue.global().asyncAfter(deadline: .now() + limit.timeInterval) { [self] in
                timeOut()
            }
        }
    }

    func identify(_ requestID: UInt64?) {
        state.withLock { $0.requestID = requestID }
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
