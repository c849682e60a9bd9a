import Synchronization

/// The default ``ActuateScheduler/sleep(for:)``: a continuation resumed by work scheduled on the scheduler, and
/// cancelled with the task.
enum SchedulerSleep {
    private enum State {
        case waiting
        case sleeping(CheckedContinuation<Void, any Error>, ScheduledWork?)
        case done
    }

    /// One sleeper's state, shared by the task, its cancellation handler and the scheduled wake-up.
    private final class Sleeper: Sendable {
        let state = Mutex(State.waiting)

        /// Ends the sleep with `result`, once: the first of the wake-up and the cancellation wins.
        func finish(_ result: Result<Void, any Error>) {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                defer { state = .done }
                if case .sleeping(let continuation, _) = state { return continuation }
                return nil
            }
            continuation?.resume(with: result)
        }
    }

    static func sleep(for duration: Duration, on scheduler: some ActuateScheduler) async throws {
        try Task.checkCancellation()
        let sleeper = Sleeper()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = sleeper.state.withLock { state -> Bool in
                    guard case .waiting = state else { return true }
                    state = .sleeping(continuation, nil)
                    return false
                }
                if cancelled { return continuation.resume(throwing: CancellationError()) }
                let work = scheduler.schedule(after: duration) { sleeper.finish(.success(())) }
                let cancelWork = sleeper.state.withLock { state -> Bool in
                    guard case .sleeping(let continuation, nil) = state else { return true }
                    state = .sleeping(continuation, work)
                    return false
                }
                if cancelWork { work.cancel() }
            }
        } onCancel: {
            let work = sleeper.state.withLock { state -> ScheduledWork? in
                if case .sleeping(_, let work) = state { return work }
                return nil
            }
            work?.cancel()
            sleeper.finish(.failure(CancellationError()))
        }
    }
}
