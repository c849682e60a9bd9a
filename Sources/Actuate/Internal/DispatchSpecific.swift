import Dispatch

/// The context pointer libdispatch holds for a `DispatchSpecificKey` on the current queue hierarchy.
enum DispatchSpecific {
    /// The bit pattern of the context pointer stored under `key` for the nearest queue of the current hierarchy
    /// that has one, or 0: what `DispatchQueue.getSpecific(key:)` reads, without counting references to the
    /// key, the box or the value.
    static func contextBitPattern<Value>(for key: DispatchSpecificKey<Value>) -> Int {
        Int(bitPattern: dispatchGetSpecific(Unmanaged.passUnretained(key).toOpaque()))
    }
}

/// libdispatch's `dispatch_get_specific`, which the Dispatch overlay wraps in `DispatchQueue.getSpecific`.
///
/// Bound by symbol name: the overlay does not export the C function. It takes and returns one pointer, for
/// which Swift's calling convention is the C one on every supported platform.
@_silgen_name("dispatch_get_specific")
private func dispatchGetSpecific(_ key: UnsafeRawPointer) -> UnsafeMutableRawPointer?
