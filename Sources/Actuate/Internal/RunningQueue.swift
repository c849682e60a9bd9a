import Synchronization

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
///
/// The cell also holds the thread's dispatch sequence (``DispatchingThreads``), which other threads read: so every
/// cell is listed in ``cells`` from its allocation until its thread exits, and is freed only after it left the
/// list, under the list's lock.
@usableFromInline
enum RunningQueue {
    /// A POSIX thread-specific key.
    @usableFromInline typealias Key = pthread_key_t

    /// A thread's cell.
    @usableFromInline typealias Cell = UnsafeMutablePointer<Record>

    /// The content of a thread's cell.
    @usableFromInline
    struct Record: ~Copyable {
        /// The address of the marker recorded for the thread, or nil; read and written only by the thread.
        @usableFromInline var marker: UnsafeMutableRawPointer?
        /// The thread's dispatch sequence: odd while the thread is inside a dispatch call, incremented when it
        /// enters and leaves the outermost one. Written only by the thread, read by writers of plugin lists
        /// (``DispatchingThreads``).
        @usableFromInline let dispatchSequence: Atomic<UInt64>

        init() {
            self.marker = nil
            self.dispatchSequence = Atomic(0)
        }
    }

    /// The POSIX thread-specific key, created once per process. Its destructor frees a thread's cell when the
    /// thread exits (POSIX clears the slot first, so the cell is freed once).
    @usableFromInline static let key: pthread_key_t = {
        var key = pthread_key_t()
        // The destructor's parameter is optional on Linux and not on Darwin: `freeCell` takes either.
        let status = pthread_key_create(&key, { cell in RunningQueue.freeCell(cell) })
        precondition(status == 0, "pthread_key_create failed with \(status)")
        return key
    }()

    /// The address of every live cell, so that another thread can read a cell's dispatch sequence under this lock,
    /// which keeps the cell from being freed meanwhile.
    static let cells = Mutex<Set<UInt>>([])

    /// Whether the dispatcher is running a body of `marker`'s queue on this thread.
    ///
    /// Reads the key from the marker (``DispatchQueueMarker/runningQueueKey``), a plain load, rather than from
    /// ``key``, whose lazy initialization is checked on every read.
    @inlinable
    static func isRunning(_ marker: DispatchQueueMarker) -> Bool {
        // Safe: a non-nil slot holds this thread's cell, which only this thread reads or writes, until it exits.
        guard let cell = pthread_getspecific(marker.runningQueueKey) else { return false }
        return UnownedReference(marker).isAt(cell.assumingMemoryBound(to: Record.self).pointee.marker)
    }

    /// Records that this thread now runs a body of `marker`'s queue.
    /// - Returns: The previous record, to hand to ``leave(restoring:)``.
    @inlinable
    static func enter(_ marker: UnownedReference<DispatchQueueMarker>) -> Entered {
        enter(marker, in: cell(of: marker))
    }

    /// ``enter(_:)`` with this thread's cell, which the caller already read (``DispatchingThreads``).
    @inlinable
    static func enter(_ marker: UnownedReference<DispatchQueueMarker>, in cell: Cell) -> Entered {
        let previous = cell.pointee.marker
        cell.pointee.marker = marker.address
        return Entered(cell: cell, previous: previous)
    }

    /// Restores the record that ``enter(_:)`` replaced.
    @inlinable
    static func leave(restoring entered: Entered) {
        // Safe: the cell is this thread's (``enter(_:)`` ran on this thread), alive until the thread exits.
        entered.cell.pointee.marker = entered.previous
    }

    /// This thread's cell, read with the key `marker` holds (a plain load, where ``key`` checks its lazy
    /// initialization).
    @inlinable
    static func cell(of marker: UnownedReference<DispatchQueueMarker>) -> Cell {
        cell(key: marker.withObject { $0.runningQueueKey })
    }

    /// This thread's cell, made on the thread's first record.
    @inlinable
    static func cell(key: Key) -> Cell {
        if let cell = pthread_getspecific(key) { return cell.assumingMemoryBound(to: Record.self) }
        return makeCell(key: key)
    }

    /// Allocates this thread's cell, empty, lists it in ``cells`` and stores it in the slot of `key`.
    @usableFromInline
    static func makeCell(key: Key) -> Cell {
        let cell = Cell.allocate(capacity: 1)
        cell.initialize(to: Record())
        cells.withLock { _ = $0.insert(UInt(bitPattern: cell)) }
        let status = pthread_setspecific(key, cell)
        precondition(status == 0, "pthread_setspecific failed with \(status)")
        return cell
    }

    /// Takes a cell off ``cells`` and frees it: the key's destructor, when the cell's thread exits.
    static func freeCell(_ memory: UnsafeMutableRawPointer?) {
        guard let cell = memory?.assumingMemoryBound(to: Record.self) else { return }
        cells.withLock { _ = $0.remove(UInt(bitPattern: cell)) }
        cell.deinitialize(count: 1)
        cell.deallocate()
    }

    /// Calls `body` with the address and the dispatch sequence of every live cell, under the lock that keeps
    /// each cell alive while it is read. The sequence is read with acquiring ordering: see ``DispatchingThreads``.
    static func forEachDispatchSequence(_ body: (UInt, UInt64) -> Void) {
        cells.withLock { cells in
            for address in cells {
                // Safe: a listed cell is alive until its thread takes it off the list, under this lock.
                let cell = Cell(bitPattern: address)!
                body(address, cell.pointee.dispatchSequence.load(ordering: .acquiring))
            }
        }
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
        return cell.assumingMemoryBound(to: Record.self).pointee.marker.map {
            UnownedReference<DispatchQueueMarker>.knownObject(at: $0).object
        }
    }
}
