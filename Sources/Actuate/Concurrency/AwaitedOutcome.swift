import Synchronization

/// The outcome of a perform that the awaiting task runs itself: delivered by the request's completion, usually
/// before the task asks for it, so that reading it then takes neither a continuation nor a suspension.
@usableFromInline
final class AwaitedOutcome: Sendable {
    private enum State {
        case pending
        case delivered(ActionPerformOutcome)
        case awaited(CheckedContinuation<ActionPerformOutcome, Never>)
    }

    private let state = Mutex(State.pending)

    @usableFromInline
    init() {}

    /// Records the outcome, resuming the task if it already waits for it. Called once, by the completion.
    @usableFromInline
    func deliver(_ outcome: ActionPerformOutcome) {
        let waiting = state.withLock { state -> CheckedContinuation<ActionPerformOutcome, Never>? in
            guard case .awaited(let continuation) = state else {
                state = .delivered(outcome)
                return nil
            }
            return continuation
        }
        waiting?.resume(returning: outcome)
    }

    /// The outcome, if it has been delivered: read without an async call, which is the usual case.
    @usableFromInline
    var delivered: ActionPerformOutcome? {
        guard case .delivered(let outcome) = state.withLock({ $0 }) else { return nil }
        return outcome
    }

    /// The outcome: at once when it was delivered, otherwise when it is.
    @usableFromInline
    var value: ActionPerformOutcome {
        get async {
            if let delivered { return delivered }
            return await withCheckedContinuation { continuation in
                let delivered = state.withLock { state -> ActionPerformOutcome? in
                    guard case .delivered(let outcome) = state else {
                        state = .awaited(continuation)
                        return nil
                    }
                    return outcome
                }
                if let delivered { continuation.resume(returning: delivered) }
            }
        }
    }
}
