import Dispatch

/// The context pointer libdispatch holds for a `DispatchSpecificKey` on the current queue hierarchy, and the
/// current queue itself.
enum DispatchSpecific {
    /// The bit pattern of the context pointer stored under `key` for the nearest queue of the current hierarchy
    /// that has one, or 0: what `DispatchQueue.getSpecific(key:)` reads, without counting references to the
    /// key, the box or the value.
    static func contextBitPattern<Value>(for key: DispatchSpecificKey<Value>) -> Int {
        Int(bitPattern: dispatchGetSpecific(Unmanaged.passUnretained(key).toOpaque()))
    }

    /// The bit pattern of the context pointer stored under `key` on the queue whose bit pattern is `queue` itself
    /// (not its target queues), or 0. `queue` must be ``currentQueueBitPattern``, read on this thread: the queue
    /// that runs the current block, alive while it does.
    static func contextBitPattern<Value>(for key: DispatchSpecificKey<Value>, onQueue queue: Int) -> Int {
        guard let queue = UnsafeMutableRawPointer(bitPattern: queue) else { return 0 }
        return Int(bitPattern: dispatchQueueGetSpecific(queue, Unmanaged.passUnretained(key).toOpaque()))
    }

    /// The bit pattern of the queue libdispatch records as running the current block on this thread: the queue
    /// `dispatch_get_specific` starts its search from. Never 0 (with no queue recorded, libdispatch answers
    /// with a global root queue, on which nothing can be set with `setSpecific`). Reads a thread-local; takes
    /// no lock.
    static var currentQueueBitPattern: Int {
        Int(bitPattern: dispatchGetCurrentQueue())
    }
}

/// libdispatch's `dispatch_get_specific`, which the Dispatch overlay wraps in `DispatchQueue.getSpecific`.
///
/// Bound by symbol name: the overlay does not export the C function. It takes and returns one pointer, for
/// which Swift's calling convention is the C one on every supported platform.
@_silgen_name("dispatch_get_specific")
private func dispatchGetSpecific(_ key: UnsafeRawPointer) -> UnsafeMutableRawPointer?

/// libdispatch's `dispatch_queue_get_specific`: the context stored under `key` on `queue` alone.
///
/// Bound by symbol name, as `dispatch_get_specific`; two pointer arguments and a pointer result are passed in
/// the same registers by Swift's calling convention and the C one on every supported platform.
@_silgen_name("dispatch_queue_get_specific")
private func dispatchQueueGetSpecific(_ queue: UnsafeMutableRawPointer, _ key: UnsafeRawPointer) -> UnsafeRawPointer?

/// libdispatch's `dispatch_get_current_queue`: the queue recorded in this thread's dispatch state, unretained
/// (the result is only compared, never dereferenced, so no reference is counted).
///
/// Deprecated in the C headers as a way to reason about queue identity, because a block may run on a queue
/// that targets another; here it only recognises the one queue a marker is attached to, and every other answer
/// falls back to `dispatch_get_specific`, which starts its search from this same queue. Bound by symbol name:
/// the overlay does not export it.
@_silgen_name("dispatch_get_current_queue")
private func dispatchGetCurrentQueue() -> UnsafeMutableRawPointer?
