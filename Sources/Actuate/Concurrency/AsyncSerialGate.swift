import Synchronization

/// Lets one async action body at a time run on a queue, in arrival order, so that async bodies of one queue
/// never interleave at suspension points, just as callback bodies of a serial queue never overlap.
///
/// The gate is re-entrant per task tree: a body that awaits another action on its own queue runs that action
/// at once instead of waiting for itself.
final class AsyncSerialGate: Sendable {
    @TaskLocal static var held: Set<ObjectIdentifier> = []

    private struct State {
        var isHeld = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    /// Runs `body` while holding the gate, waiting for earlier holders first.
    func withGate<T: Sendable>(_ body: @Sendable () async -> T) async -> T {
        let id = ObjectIdentifier(self)
        if Self.held.contains(id) { return await body() }
        await acquire()
        defer { release() }
        return await Self.$held.withValue(Self.held.union([id])) { await body() }
    }

    /// The number of bodies waiting for the gate.
    var waitingCount: Int {
        state.withLock { $0.waiters.count - $0.nextWaiter }
    }

    private func acquire() async {
        await withCheckedContinuation { continuation in
            let acquired = state.withLock { state -> Bool in
                if state.isHeld {
                    state.waiters.append(continuation)
                    return false
                }
                state.isHeld = true
                return true
            }
            if acquired { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.nextWaiter < state.waiters.count else {
                state.isHeld = false
                state.waiters.removeAll(keepingCapacity: true)
                state.nextWaiter = 0
                return nil
            }
            let next = state.waiters[state.nextWaiter]
            state.nextWaiter += 1
            return next
        }
        next?.resume()
    }
}
