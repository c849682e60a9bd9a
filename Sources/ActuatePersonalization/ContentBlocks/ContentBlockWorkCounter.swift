import Synchronization

/// Counts the manager's work in flight (queue hops, source loads, downloads, tracking actions), so that
/// ``ContentBlockManager/waitUntilIdle()`` can return when all of it has finished, without polling or sleeping.
final class ContentBlockWorkCounter: Sendable {
    private struct State {
        var running = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Notes that a piece of work has started.
    func begin() {
        state.withLock { $0.running += 1 }
    }

    /// Notes that a piece of work has ended, waking the waiters when it was the last.
    func end() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.running -= 1
            guard state.running == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns when no work is running.
    func waitUntilIdle() async {
        await withCheckedContinuation { continuation in
            let idle = state.withLock { state -> Bool in
                if state.running > 0 { state.waiters.append(continuation) }
                return state.running == 0
            }
            if idle { continuation.resume() }
        }
    }
}
