import Synchronization

/// Which threads are inside a dispatch call: what lets a dispatcher release a plugin list it replaced, once no
/// dispatch can still be reading it, while a dispatch reads the current list with no atomic read-modify-write of
/// its own.
///
/// Each thread's cell (``RunningQueue``) holds a dispatch sequence, odd while the thread is inside a dispatch call
/// (nested calls leave it as the outermost one set it). The dispatch sets it with a plain store before it takes its
/// request id, and stores the next even value, releasing, when the call returns. The protocol, with a writer that
/// replaces list `L`:
///
/// - The dispatch: `enter` (sequence odd, relaxed store); the request-id read-modify-write, acquiring and
///   releasing; the load of the current list, acquiring; the call's work, including counting a reference to the
///   list when the operation outlives the call; `leave` (sequence even, releasing store).
/// - The writer: stores the new list (releasing); a read-modify-write, acquiring and releasing, of every location
///   a dispatch takes its request id from (`ActionDispatcher.orderAfterDispatches()`); then reads every thread's
///   sequence (acquiring, ``sequences()``). `L` is released once every thread it saw odd has left that dispatch
///   call (its sequence has changed since) or has exited (``RetiredPluginLists``).
///
/// Why it is safe: the dispatch's and the writer's read-modify-writes of one location are ordered. If the
/// dispatch's comes first, the writer's synchronizes with it, so the writer sees the odd sequence stored before it
/// (or a later value) and waits for that call to end. If the writer's comes first, the dispatch's synchronizes with
/// it, so the dispatch loads the new list (or a later one), never `L`. The request id was already a
/// read-modify-write on every dispatch; only its ordering changed from relaxed, which is the same instruction on
/// x86-64 (a locked add or compare-and-exchange) and on ARMv8.1 (`casal`/`ldaddal` in place of `cas`/`ldadd`).
@usableFromInline
enum DispatchingThreads {
    /// Marks this thread as inside a dispatch call until ``leave(_:)``; `key` is ``RunningQueue/key``, read from
    /// a queue marker (a plain load) rather than through its lazy initializer.
    ///
    /// Must come before the request id is taken, which must come before the plugin list is loaded.
    @inlinable
    static func enter(key: RunningQueue.Key) -> Entered {
        let cell = RunningQueue.cell(key: key)
        // Safe: the cell is this thread's, alive until the thread exits; only this thread writes the sequence.
        let sequence = cell.pointee.dispatchSequence.load(ordering: .relaxed)
        if sequence & 1 == 1 { return Entered(cell: cell, exitSequence: nil) }
        cell.pointee.dispatchSequence.store(sequence &+ 1, ordering: .relaxed)
        return Entered(cell: cell, exitSequence: sequence &+ 2)
    }

    /// Marks the end of the dispatch call that ``enter(key:)`` began; after the call's last read of the plugin list
    /// (or after the operation counted a reference to it).
    @inlinable
    static func leave(_ entered: Entered) {
        guard let exitSequence = entered.exitSequence else { return }
        // Safe: as in `enter`; releasing, so that the call's reads of the list come before a writer sees it.
        entered.cell.pointee.dispatchSequence.store(exitSequence, ordering: .releasing)
    }

    /// The dispatch sequence of every thread that has a cell, by cell address, read acquiring.
    static func sequences() -> [UInt: UInt64] {
        var sequences: [UInt: UInt64] = [:]
        RunningQueue.forEachDispatchSequence { sequences[$0] = $1 }
        return sequences
    }

    /// What ``enter(key:)`` did: the thread's cell and the sequence to store when the call returns, nil for a
    /// nested call.
    @usableFromInline
    struct Entered {
        @usableFromInline let cell: RunningQueue.Cell
        @usableFromInline let exitSequence: UInt64?

        @inlinable
        init(cell: RunningQueue.Cell, exitSequence: UInt64?) {
            self.cell = cell
            self.exitSequence = exitSequence
        }
    }
}
