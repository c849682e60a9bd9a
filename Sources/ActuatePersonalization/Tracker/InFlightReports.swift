import Synchronization

/// Counts the report actions handed to the dispatcher that have not completed, and wakes those waiting for
/// the count to reach zero.
final class InFlightReports: Sendable {
    private struct State {
        var count = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func begin() {
        state.withLock { $0.count += 1 }
    }

    func end() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count = max(0, state.count - 1)
            guard state.count == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    var count: Int { state.withLock { $0.count } }

    /// Returns once no report is in flight.
    func wait() async {
        await withCheckedContinuation { continuation in
            let idle = state.withLock { state -> Bool in
                if state.count > 0 { state.waiters.append(continuation) }
                return state.count == 0
            }
            if idle { continuation.resume() }
        }
    }
}
