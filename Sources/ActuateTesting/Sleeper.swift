import Synchronization

/// One task sleeping on a ``TestScheduler``: resumed once, by the advance that passes its deadline or by the
/// task's cancellation, whichever comes first.
final class Sleeper: Sendable {
    private enum State {
        case waiting
        case sleeping(CheckedContinuation<Void, any Error>, cancel: (@Sendable () -> Void)?)
        case done
    }

    private let state = Mutex(State.waiting)

    /// Stores the continuation; false, having resumed it with `CancellationError`, when the task was cancelled
    /// first.
    func begin(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            guard case .waiting = state else { return true }
            state = .sleeping(continuation, cancel: nil)
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// Stores what removes the wake-up from the scheduler; runs it at once when the task was cancelled meanwhile.
    func setCancel(_ cancel: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            guard case .sleeping(let continuation, nil) = state else { return true }
            state = .sleeping(continuation, cancel: cancel)
            return false
        }
        if runNow { cancel() }
    }

    /// Ends the sleep with `result`, once.
    func finish(_ result: Result<Void, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            defer { state = .done }
            if case .sleeping(let continuation, _) = state { return continuation }
            return nil
        }
        continuation?.resume(with: result)
    }

    /// Removes the wake-up and ends the sleep with `CancellationError`.
    func cancel() {
        let cancel = state.withLock { state -> (@Sendable () -> Void)? in
            if case .sleeping(_, let cancel) = state { return cancel }
            if case .waiting = state { state = .done }
            return nil
        }
        cancel?()
        finish(.failure(CancellationError()))
    }
}
