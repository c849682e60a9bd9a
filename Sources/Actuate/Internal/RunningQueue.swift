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
///
/// The thread-specific slot holds a pointer to a cell of this thread, allocated on the thread's first record and
/// freed when the thread exits, and the record is the cell's content: so entering and leaving a body read the
/// slot once and write the cell, where writing the slot itself (`pthread_setspecific`) costs about 35 instructions
/// a write, twice per dispatch.
@usableFromInline
enum RunningQueue {
    /// A POSIX thread-specific key.
    @usableFromInline typealias Key = pthread_key_t

    /// A thread's cell: the address of the marker recorded for the thread, or nil.
    @usableFromInline typealias Cell = UnsafeMutablePointer<UnsafeMutableRawPointer?>

    /// The POSIX thread-specific key, created once per process. Its destructor frees a thread's cell when the
    /// thread exits (POSIX clears the slot first, so the cell is freed once).
    @usableFromInline static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, { cell in free(cell) })
        precondition(status == 0, "pthread_key_create failed with \(status)")
        return key
    }()

    /// Whether the dispatcher is running a body of `marker`'s queue on this thread.
    ///
    /// Reads the key from the marker (``DispatchQueueMarker/runningQueueKey``), a plain load, rather than from
    /// ``key``, whose lazy initialization is checked on every read.
    @inlinable
    static func isRunning(_ marker: DispatchQueueMarker) -> Bool {
        // Safe: a non-nil slot holds this thread's cell, which only this thread reads or writes, until it exits.
        guard let cell = pthread_getspecific(marker.runningQueueKey) else { return false }
        return UnownedReference(marker).isAt(cell.assumingMemoryBound(to: UnsafeMutableRawPointer?.self).pointee)
    }

    /// Records that this thread now runs a body of `marker`'s queue.
    /// - Returns: The previous record, to hand to ``leave(restoring:)``.
    @inlinable
    static func enter(_ marker: UnownedReference<DispatchQueueMarker>) -> Entered {
        let cell = cell(key: marker.withObject { $0.runningQueueKey })
        let previous = cell.pointee
        cell.pointee = marker.address
        return Entered(cell: cell, previous: previous)
    }

    /// Restores the record that ``enter(_:)`` replaced.
    @inlinable
    static func leave(restoring entered: Entered) {
        // Safe: the cell is this thread's (``enter(_:)`` ran on this thread), alive until the thread exits.
        entered.cell.pointee = entered.previous
    }

    /// This thread's cell, made on the thread's first record.
    @inlinable
    static func cell(key: Key) -> Cell {
        if let cell = pthread_getspecific(key) { return cell.assumingMemoryBound(to: UnsafeMutableRawPointer?.self) }
        return makeCell(key: key)
    }

    /// Allocates this thread's cell, empty, and stores it in the slot of `key`.
    @usableFromInline
    static func makeCell(key: Key) -> Cell {
        guard let memory = malloc(MemoryLayout<UnsafeMutableRawPointer?>.size) else {
            fatalError("RunningQueue: out of memory for a thread's cell")
        }
        let cell = memory.bindMemory(to: UnsafeMutableRawPointer?.self, capacity: 1)
        cell.initialize(to: nil)
        let status = pthread_setspecific(key, memory)
        precondition(status == 0, "pthread_setspecific failed with \(status)")
        return cell
    }

    /// What ``enter(_:)`` replaced, and the cell it was replaced in.
    @usableFromInline
    struct Entered {
        @usableFromInline let cell: Cell
        @usableFromInline let previous: UnsafeMutableRawPointer?

        @inlinable
        init(cell: Cell, previous: UnsafeMutableRawPointer?) {
            self.cell = cell
            self.previous = previous
        }
    }

    /// The marker recorded for this thread: alive while the body that recorded it runs, since its queue, which
    /// holds it, is running that body's block further up this thread's stack.
    static var currentMarker: DispatchQueueMarker? {
        guard let cell = pthread_getspecific(key) else { return nil }
        return cell.assumingMemoryBound(to: UnsafeMutableRawPointer?.self).pointee.map {
            UnownedReference<DispatchQueueMarker>.knownObject(at: $0).object
        }
    }
}
