import Dispatch
import Synchronization

/// Writes snapshots behind the caller: ``submit(_:generation:)`` keeps the newest snapshot under a lock and
/// returns; a writer queue writes it, and snapshots submitted while a write is running are coalesced to the
/// newest one.
///
/// The caller's thread never encodes, writes or syncs. What a crash can lose is the snapshots the last finished
/// write did not hold: at most about two writes' time (the one in flight and the one before it; each an encode and
/// an `fsync`). A file is always replaced whole by its writer (``OwnerOnlyFile``), so a crash never leaves it
/// damaged.
///
/// The writer's block holds this value and the newest snapshot, so releasing the owner (a tracker's `deinit`)
/// loses nothing: the pending snapshot is still written. ``wait()`` returns once every snapshot submitted
/// before it is written (for tests, and for an app about to be suspended).
final class WriteBehind<Snapshot: Sendable>: Sendable {
    private struct State {
        var pending: (snapshot: Snapshot, generation: UInt64)?
        /// The newest generation handed to `submit`, written or not.
        var submitted: UInt64 = 0
        /// The newest generation the writer finished (written, or failed and reported).
        var finished: UInt64 = 0
        var draining = false
        /// How many snapshots the writer wrote (or failed to).
        var writes = 0
        var waiters: [(generation: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
    }

    /// The writer queue; tests suspend it to show that callers return without it.
    let queue: DispatchQueue
    private let write: @Sendable (Snapshot, UInt64) -> Void
    private let state = Mutex(State())

    /// - Parameters:
    ///   - queue: The serial writer queue; several writers may share one.
    ///   - write: Writes one snapshot and its generation, on `queue`; reports its own failures.
    init(queue: DispatchQueue, write: @escaping @Sendable (_ snapshot: Snapshot, _ generation: UInt64) -> Void) {
        self.queue = queue
        self.write = write
    }

    /// Whether a snapshot of `generation` would be newer than every one submitted, so worth taking.
    func wants(generation: UInt64) -> Bool {
        state.withLock { generation > $0.submitted }
    }

    /// Keeps `snapshot` as the one to write unless a newer generation was submitted, and starts the writer when it
    /// is idle. Never blocks on the disk.
    func submit(_ snapshot: Snapshot, generation: UInt64) {
        let start = state.withLock { state -> Bool in
            guard generation > state.submitted else { return false }
            state.submitted = generation
            state.pending = (snapshot, generation)
            defer { state.draining = true }
            return !state.draining
        }
        if start { queue.async { self.drain() } }
    }

    /// Writes the newest pending snapshot until none is left. Writer queue.
    private func drain() {
        while true {
            let next = state.withLock { state -> (snapshot: Snapshot, generation: UInt64)? in
                guard let pending = state.pending else {
                    state.draining = false
                    return nil
                }
                state.pending = nil
                return pending
            }
            guard let next else { return }
            write(next.snapshot, next.generation)
            let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.finished = max(state.finished, next.generation)
                state.writes += 1
                let finished = state.finished
                let ready = state.waiters.filter { $0.generation <= finished }.map(\.continuation)
                state.waiters.removeAll { $0.generation <= finished }
                return ready
            }
            for waiter in ready { waiter.resume() }
        }
    }

    /// How many snapshots the writer has written (or failed to write) so far; coalesced ones are not counted.
    var writeCount: Int { state.withLock { $0.writes } }

    /// Returns once every snapshot submitted before the call has been written (or its failure reported).
    func wait() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                guard state.submitted > state.finished else { return true }
                state.waiters.append((state.submitted, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }
}
