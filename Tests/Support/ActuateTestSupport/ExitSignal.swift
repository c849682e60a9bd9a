import Synchronization

/// A one-shot signal for a child process's exit, awaited without blocking a thread.
///
/// Set it as the process's termination handler before running it:
///
/// ```swift
/// let exited = ExitSignal()
/// process.terminationHandler = { _ in exited.signal() }
/// try process.run()
/// await exited.wait()
/// ```
package final class ExitSignal: Sendable {
    private struct State {
        var done = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Creates a signal that has not fired yet.
    package init() {}

    /// Fires the signal, resuming every waiter now and every later one at once.
    package func signal() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.done = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the signal has fired.
    package func wait() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                if !state.done { state.waiters.append(continuation) }
                return state.done
            }
            if done { continuation.resume() }
        }
    }
}
