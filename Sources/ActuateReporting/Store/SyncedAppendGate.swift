import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Lets concurrent ``DurabilityMode/synced`` appends share one write and sync, and lets each learn at once whether
/// the write in flight carried its event.
///
/// An append that has queued its event waits here until the event is on disk. If no write is in flight, it leads
/// the next one. Before writing, a leader lets every recent appender queue its next event: it yields the
/// processor while fewer appends are queued than the previous write carried plus those that queued while it was
/// in flight, a bounded number of times and never on a timer. So four threads appending in a loop share a sync
/// four ways instead of settling into partial batches (three in one write, the fourth waiting for the next).
///
/// Appends that arrive while a write is in flight wait for it to end: first by yielding the processor a bounded
/// number of times while they watch a count of finished writes, then on a condition. Yielding keeps them running,
/// so they return as soon as the write ends instead of after a wake-up, which takes tens of microseconds on a
/// virtual machine whose cores went idle during the sync; and a thread that yields gives its core to any other
/// thread that can run. Those whose events the write carried return at once.
///
/// A lone thread never yields: its previous write carried one append, its own append is already queued, and no
/// write is in flight when it appends.
final class SyncedAppendGate: @unchecked Sendable {
    // @unchecked: every stored `var` below is read and written only with `condition` locked; the rest are
    // immutable, or atomic (`finishedWrites`).

    /// How many times a leader yields at most while it waits for the recent appenders to queue again. Four threads
    /// on two cores gathered about 3.3 appends per sync with 16 and 3.97 with 64 on one machine; on another, whose
    /// yields return sooner, 64 gathered 3.70 and 256 gathered 3.97 to 3.99 (`actuate-bench --filter
    /// journal.append`, 24,000 appends). A stale count (appenders that stopped) delays one write by at most this
    /// many yields, about 0.1 ms with no other thread to run, before the leader writes what it has.
    static let maxGatheringYields = 256

    /// How many times an append that finds a write in flight yields at most, watching for the write to end, before
    /// it waits on the condition. Four threads on two cores share each sync about as many ways either way; with
    /// waiters that wait on the condition at once, the cycle from one sync to the next took about 33 µs more than
    /// a lone thread's, and with waiters that yield it took about 10 µs more (timed in a temporary build; the
    /// Performance article has the figures). 256 yields last about 0.13 ms, about one sync on that machine's disk;
    /// a write that takes longer costs each waiter that much processor time before it sleeps.
    static let maxWaitingYields = 256

    private let condition = NSCondition()
    /// Gives the processor to other threads while a leader gathers appends: `sched_yield` unless a test scripts it.
    private let yieldProcessor: @Sendable () -> Void
    /// Gives the processor to other threads while an append waits for the write in flight: `sched_yield` unless a
    /// test scripts it.
    private let yieldWhileWaiting: @Sendable () -> Void
    /// Writes that have ended, successfully or not: what waiting appends watch while they yield, without the lock.
    /// Only changed with `condition` locked.
    private let finishedWrites = Atomic<Int>(0)
    /// Whether an append is leading a write now.
    private var writing = false
    /// Synced appends queued since the last write began.
    private var queuedSinceLastWrite = 0
    /// Synced appends queued for the last write when it began, plus those queued while it was in flight: how many
    /// a leader waits for.
    private var awaitedAppends = 0
    /// Writes led so far, and the appends they carried, for tests and profiles.
    private var ledWrites = 0
    private var carriedAppends = 0
    /// How many times appends waited on the condition, for tests.
    private var conditionWaits = 0

    /// Creates a gate.
    /// - Parameters:
    ///   - yieldProcessor: Called each time a leader yields while it gathers appends; tests pass their own to
    ///     queue appends at chosen points.
    ///   - yieldWhileWaiting: Called each time an append yields while it waits for the write in flight; tests pass
    ///     their own to end that write at a chosen point.
    init(
        yieldProcessor: @escaping @Sendable () -> Void = { _ = sched_yield() },
        yieldWhileWaiting: @escaping @Sendable () -> Void = { _ = sched_yield() }
    ) {
        self.yieldProcessor = yieldProcessor
        self.yieldWhileWaiting = yieldWhileWaiting
    }

    /// Notes that a synced append has queued its event for the next write.
    func appendQueued() {
        condition.lock()
        queuedSinceLastWrite += 1
        condition.unlock()
    }

    /// Returns once `isWritten` holds, or once a write this append led has succeeded; writes with `write` when no
    /// other append is writing.
    ///
    /// - Parameters:
    ///   - isWritten: Whether the waiting append's event is on disk. Called with the gate locked; it may take the
    ///     journal state's lock, never the files lock.
    ///   - write: Writes and syncs every queued change. Called with the gate unlocked.
    /// - Throws: What `write` throws, from the append that led the failed write; the others then find their
    ///   events not written and lead a write of their own.
    func waitUntilWritten(_ isWritten: () throws -> Bool, write: () throws -> Void) throws {
        condition.lock()
        defer { condition.unlock() }
        while try !isWritten() {
            if writing {
                waitForWriteInFlight()
                continue
            }
            writing = true
            let awaited = awaitedAppends
            condition.unlock()
            gatherQueuedAppends(awaited)
            condition.lock()
            let carried = queuedSinceLastWrite
            carriedAppends += carried
            ledWrites += 1
            queuedSinceLastWrite = 0
            condition.unlock()
            let failure: (any Error)?
            do {
                try write()
                failure = nil
            } catch {
                failure = error
            }
            condition.lock()
            writing = false
            finishedWrites.add(1, ordering: .releasing)
            // The appends queued while the write was in flight are waiting now; the ones it carried will queue
            // again as soon as they return.
            awaitedAppends = carried + queuedSinceLastWrite
            condition.broadcast()
            if let failure { throw failure }
            // The write took every change queued so far, this append's included (or it queued none, as a
            // duplicate does): done, whether or not `isWritten` can tell.
            return
        }
    }

    /// The writes led so far and the synced appends queued for them.
    var writeCounts: (writes: Int, appends: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (ledWrites, carriedAppends)
    }

    /// How many times appends waited on the condition because the write in flight outlasted their yields.
    var waitsOnCondition: Int {
        condition.lock()
        defer { condition.unlock() }
        return conditionWaits
    }

    /// Returns once the write in flight has ended, or on a spurious wake-up: yields with the gate unlocked while
    /// the write lasts, at most ``maxWaitingYields`` times, then waits on the condition. Called and returns with
    /// `condition` locked.
    private func waitForWriteInFlight() {
        let finished = finishedWrites.load(ordering: .relaxed)
        condition.unlock()
        var yields = 0
        while yields < Self.maxWaitingYields, finishedWrites.load(ordering: .acquiring) == finished {
            yieldWhileWaiting()
            yields += 1
        }
        condition.lock()
        // Writes end with the gate locked, so this check cannot miss the broadcast of one that ends meanwhile.
        guard finishedWrites.load(ordering: .relaxed) == finished else { return }
        conditionWaits += 1
        condition.wait()
    }

    /// Yields while fewer than `awaited` appends are queued, at most ``maxGatheringYields`` times.
    private func gatherQueuedAppends(_ awaited: Int) {
        for _ in 0..<Self.maxGatheringYields {
            condition.lock()
            let queued = queuedSinceLastWrite
            condition.unlock()
            if queued >= awaited { return }
            yieldProcessor()
        }
    }
}
