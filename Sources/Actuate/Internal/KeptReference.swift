import Synchronization

/// A counted reference that its owner takes at most once, possibly after other threads already hold the owner,
/// and drops when the owner is deinitialized.
///
/// The reference is stored and read back with atomic operations, so that the deinitialization, on whichever thread
/// releases the owner last, sees the store even though only reference counting orders the two, which the thread
/// sanitizer does not see. Safe: ``keep(_:)`` stores the object retained and is called at most once (a second
/// call would leak the first reference, never free an object twice), and `deinit`, which runs once, releases it.
@usableFromInline
struct KeptReference<Object: AnyObject & Sendable>: ~Copyable, Sendable {
    @usableFromInline let slot = Atomic<UnownedReference<Object>?>(nil)

    @usableFromInline init() {}

    /// Keeps the object `reference` names, which its owner keeps alive during this call, alive until this
    /// reference is destroyed, counting one reference and no more. Called at most once.
    @inlinable
    func keep(_ reference: UnownedReference<Object>) {
        slot.store(UnownedReference(unmanaged: reference.unmanaged.retain()), ordering: .releasing)
    }

    deinit {
        slot.load(ordering: .acquiring)?.unmanaged.release()
    }
}
