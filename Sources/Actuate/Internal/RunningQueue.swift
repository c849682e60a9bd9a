#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The thread-local record of the queue whose action body the dispatcher is running on the current thread.
///
/// The dispatcher sets it, with ``enter(_:)``, only while it runs a body on that body's queue: inline, after
/// it checked that the thread is on the queue, or in the block it submitted to the queue. It restores the
/// previous value with ``leave(restoring:)`` when the body returns. So whenever a thread reads marker `M`
/// here, a block of `M`'s queue is running on this thread, further up its stack, and the thread holds the
/// queue (libdispatch's `dispatchPrecondition(condition: .onQueue(_:))` agrees, including inside a nested
/// `sync` onto another queue). The value is a raw pointer to the marker, never read after the body that set
/// it returned, so it cannot name a marker that was freed: the dispatcher compares it, and only
/// ``DispatchQueueMarker/markerOfRunning(_:)`` dereferences it, from within that body.
@usableFromInline
enum RunningQueue {
    /// A POSIX thread-specific key.
    @usableFromInline typealias Key = pthread_key_t

    /// The POSIX thread-specific key, created once per process.
    @usableFromInline static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed with \(status)")
        return key
    }()

    /// Whether the dispatcher is running a body of `marker`'s queue on this thread.
    ///
    /// Reads the key from the marker (``DispatchQueueMarker/runningQueueKey``), a plain load, rather than from
    /// ``key``, whose lazy initialization is checked on every read.
    @inlinable
    static func isRunning(_ marker: DispatchQueueMarker) -> Bool {
        UnownedReference(marker).isAt(pthread_getspecific(marker.runningQueueKey))
    }

    /// Records that this thread now runs a body of `marker`'s queue.
    /// - Returns: The previous record, to hand to ``leave(restoring:)``.
    @inlinable
    static func enter(_ marker: UnownedReference<DispatchQueueMarker>) -> Entered {
        let key = marker.withObject { $0.runningQueueKey }
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, marker.address)
        return Entered(key: key, previous: previous)
    }

    /// Restores the record that ``enter(_:)`` replaced.
    @inlinable
    static func leave(restoring entered: Entered) {
        pthread_setspecific(entered.key, entered.previous)
    }

    /// What ``enter(_:)`` replaced, and the key it was replaced under.
    @usableFromInline
    struct Entered {
        @usableFromInline let key: Key
        @usableFromInline let previous: UnsafeMutableRawPointer?

        @inlinable
        init(key: Key, previous: UnsafeMutableRawPointer?) {
            self.key = key
            self.previous = previous
        }
    }

    /// The marker recorded for this thread: alive while the body that recorded it runs, since its queue, which
    /// holds it, is running that body's block further up this thread's stack.
    static var currentMarker: DispatchQueueMarker? {
        pthread_getspecific(key).map { UnownedReference<DispatchQueueMarker>.knownObject(at: $0).object }
    }
}
