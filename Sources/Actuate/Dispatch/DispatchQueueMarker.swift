import Dispatch
import Synchronization

/// Per-queue state that Actuate attaches to each action queue once, the first time it sees the queue, and the one
/// place that answers "is this thread on that queue?" (``isCurrent``).
///
/// The dispatcher asks that question once per dispatch, to run the body inline or hop onto the queue. The answer
/// comes from the cheapest of three pieces of evidence, each read only when the one before is silent, and each the
/// only one that sees its case:
/// 1. libdispatch names the marker's own queue as the one running the current block (``isRunningOwnQueue``: a
///    thread-local read, no lock), once the marker has learned how libdispatch names it (``queueIdentity``). This
///    sees the caller's own `sync` or `async` onto the queue, and the dispatcher's own runs.
/// 2. ``RunningQueue`` records the marker for this thread: the dispatcher sets it while it runs a body of the queue.
///    This alone sees a body that went into a `sync` onto another queue and performs from there.
/// 3. libdispatch's search of the current queue hierarchy finds the marker (``isCurrentQueue``, which takes
///    libdispatch's lock on the queue's specifics): this alone sees a queue that targets the action's queue, and it
///    teaches step 1 the queue's identity.
/// No queue, key or lock is created per dispatch.
@usableFromInline
final class DispatchQueueMarker: Sendable {
    private static let key = DispatchSpecificKey<DispatchQueueMarker>()
    private static let attachLock = Mutex<Int>(0)

    /// The queue this marker belongs to.
    let queue: DispatchQueue
    /// The gate that keeps async bodies on this queue from interleaving.
    @usableFromInline let gate = AsyncSerialGate()
    /// A task executor that runs jobs on this queue.
    @usableFromInline let executor: DispatchQueueTaskExecutor
    /// A process-unique number, in the order markers were attached (0, 1, 2, ...), which plugins use to keep
    /// per-queue state apart.
    @usableFromInline let index: Int
    /// The bit pattern of the context pointer under which libdispatch holds this marker for its queue (the box
    /// that `setSpecific` made), learned the first time `getSpecific` finds this marker; 0 until then.
    let specificContext = Atomic<Int>(0)
    /// The bit pattern under which libdispatch names this marker's queue as the current queue
    /// (`dispatch_get_current_queue`), learned the first time the `getSpecific` comparison finds this marker on
    /// the current queue itself, not on a queue it targets; 0 until then. The marker holds its queue, so no other
    /// queue can take this address while the marker is alive.
    @usableFromInline let queueIdentity = Atomic<Int>(0)
    /// ``RunningQueue/key``, copied here so that a dispatch, which holds the marker, reads it with a plain load.
    @usableFromInline let runningQueueKey: RunningQueue.Key = RunningQueue.key

    private init(queue: DispatchQueue, index: Int) {
        self.queue = queue
        self.index = index
        self.executor = DispatchQueueTaskExecutor(queue: queue)
    }

    /// The marker of `queue`, attaching one the first time.
    static func marker(for queue: DispatchQueue) -> DispatchQueueMarker {
        if let marker = queue.getSpecific(key: key) { return marker }
        return attachLock.withLock { attached in
            if let marker = queue.getSpecific(key: key) { return marker }
            let marker = DispatchQueueMarker(queue: queue, index: attached)
            attached += 1
            queue.setSpecific(key: key, value: marker)
            return marker
        }
    }

    /// The marker of `queue`, read from ``RunningQueue`` when the dispatcher is running a body of `queue` on
    /// this thread (no lock, no allocation), otherwise looked up with ``marker(for:)``.
    ///
    /// A marker recorded in ``RunningQueue`` is alive while the body that recorded it runs: its queue, which
    /// holds it, is running that body's block further up this thread's stack.
    @usableFromInline
    static func markerOfRunning(_ queue: DispatchQueue) -> DispatchQueueMarker {
        if let marker = RunningQueue.currentMarker, marker.queue === queue { return marker }
        return marker(for: queue)
    }

    /// Whether the current thread holds this marker's queue: it runs a block of the queue (or of a queue that targets
    /// it), or a body the dispatcher runs on the queue, possibly inside a `sync` onto another queue. The one way the
    /// core asks; see the type's documentation for the evidence it reads.
    @inlinable
    var isCurrent: Bool {
        Self.isRunningOwnQueue(self) || RunningQueue.isRunning(self) || Self.isCurrentQueue(self)
    }

    /// Evidence 1 of ``isCurrent``: whether libdispatch records the marker's own queue as the one running the
    /// current block: one thread-local
    /// read, no lock, no atomic read-modify-write.
    ///
    /// When it is, `getSpecific` would find this marker too: `dispatch_get_specific` starts its search from that
    /// same current queue, on which the marker is set. False until ``queueIdentity`` is learned, and for a block
    /// of a queue that targets the marker's queue; ``isCurrentQueue(_:)`` answers those.
    @usableFromInline
    static func isRunningOwnQueue(_ marker: DispatchQueueMarker) -> Bool {
        let identity = marker.queueIdentity.load(ordering: .relaxed)
        return identity != 0 && identity == DispatchSpecific.currentQueueBitPattern
    }

    /// Evidence 3 of ``isCurrent``: the `getSpecific` comparison, for callers the dispatcher did not put on the queue
    /// itself.
    ///
    /// `DispatchQueue.getSpecific` is a generic wrapper that counts references to the key, the box and the
    /// value. Underneath it, libdispatch's `dispatch_get_specific` returns the context pointer stored under the
    /// key's address for the nearest queue of the current hierarchy that has one. Each marker is stored on
    /// exactly one queue, in one box that lives as long as the queue, which the marker keeps alive: so once
    /// `getSpecific` has found this marker while `dispatch_get_specific` returned pointer `P`, `P` identifies
    /// this marker, and a later call returning `P` means that `getSpecific` would return this marker too.
    @usableFromInline
    static func isCurrentQueue(_ marker: DispatchQueueMarker) -> Bool {
        let context = DispatchSpecific.contextBitPattern(for: key)
        if context != 0, context == marker.specificContext.load(ordering: .relaxed) {
            learnQueueIdentity(of: marker, context: context)
            return true
        }
        guard DispatchQueue.getSpecific(key: key) === marker else { return false }
        if context != 0 {
            marker.specificContext.store(context, ordering: .relaxed)
            learnQueueIdentity(of: marker, context: context)
        }
        return true
    }

    /// Records the current queue as `marker`'s ``queueIdentity`` when `context`, the marker's own context pointer
    /// found by the `getSpecific` search, is set on the current queue itself: each marker is set on exactly one
    /// queue, so that queue is the marker's. A block of a queue that targets the marker's queue finds the context
    /// only on a target, and teaches nothing.
    private static func learnQueueIdentity(of marker: DispatchQueueMarker, context: Int) {
        guard marker.queueIdentity.load(ordering: .relaxed) == 0 else { return }
        let current = DispatchSpecific.currentQueueBitPattern
        guard current != 0, DispatchSpecific.contextBitPattern(for: key, onQueue: current) == context else { return }
        marker.queueIdentity.store(current, ordering: .relaxed)
    }
}
