import Dispatch
import Synchronization

/// Per-queue state that Actuate attaches to each action queue once, the first time it sees the queue.
///
/// The dispatcher tells whether the current thread is running on an action's queue by comparing the marker
/// of the current queue with the queue's own marker: two `getSpecific` reads, with no queue, key or lock
/// created per dispatch.
@usableFromInline
final class DispatchQueueMarker: Sendable {
    private static let key = DispatchSpecificKey<DispatchQueueMarker>()
    private static let attachLock = Mutex<Void>(())

    /// The queue this marker belongs to.
    let queue: DispatchQueue
    /// The gate that keeps async bodies on this queue from interleaving.
    let gate = AsyncSerialGate()
    /// A task executor that runs jobs on this queue.
    let executor: DispatchQueueTaskExecutor

    private init(queue: DispatchQueue) {
        self.queue = queue
        self.executor = DispatchQueueTaskExecutor(queue: queue)
    }

    /// The marker of `queue`, attaching one the first time.
    static func marker(for queue: DispatchQueue) -> DispatchQueueMarker {
        if let marker = queue.getSpecific(key: key) { return marker }
        return attachLock.withLock { _ in
            if let marker = queue.getSpecific(key: key) { return marker }
            let marker = DispatchQueueMarker(queue: queue)
            queue.setSpecific(key: key, value: marker)
            return marker
        }
    }

    /// Whether the current thread is running work submitted to `queue` (or to a queue that targets it).
    static func isCurrent(_ queue: DispatchQueue) -> Bool {
        isCurrent(marker(for: queue))
    }

    /// Whether the current thread is running work submitted to the queue `marker` belongs to.
    @usableFromInline
    static func isCurrent(_ marker: DispatchQueueMarker) -> Bool {
        DispatchQueue.getSpecific(key: key) === marker
    }
}
