import Synchronization

/// A reference to an object that does not keep it alive: the safe face of `Unmanaged` for the dispatch path.
///
/// Copying, storing and comparing it counts no reference. Reading the object is safe only while an owner
/// elsewhere keeps it alive; each stored `UnownedReference` says, in a comment, who that owner is (see
/// `OWNERSHIP.md` in this folder). ``withObject(_:)`` lends the object to a closure without retaining it;
/// ``object`` returns a counted (+1) reference for callers that keep it.
@usableFromInline
struct UnownedReference<Object: AnyObject> {
    @usableFromInline let unmanaged: Unmanaged<Object>

    /// A reference to `object`, which some other owner keeps alive.
    @inlinable
    init(_ object: Object) {
        self.unmanaged = Unmanaged.passUnretained(object)
    }

    @inlinable
    init(unmanaged: Unmanaged<Object>) {
        self.unmanaged = unmanaged
    }

    /// Lends the object to `body` without counting a reference.
    @inlinable
    func withObject<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try unmanaged._withUnsafeGuaranteedRef(body)
    }

    /// The object, as a counted reference the caller may keep.
    @inlinable
    var object: Object { unmanaged.takeUnretainedValue() }

    /// The object's address, for identity comparisons with a pointer stored elsewhere (a thread-local slot).
    @inlinable
    var address: UnsafeMutableRawPointer { unmanaged.toOpaque() }

    /// Whether this reference names the object at `address`.
    @inlinable
    func isAt(_ address: UnsafeRawPointer?) -> Bool {
        address == UnsafeRawPointer(unmanaged.toOpaque())
    }

    /// The object at `address`, which the caller knows is an `Object` kept alive by another owner.
    @inlinable
    static func knownObject(at address: UnsafeRawPointer) -> UnownedReference<Object> {
        UnownedReference(unmanaged: Unmanaged.fromOpaque(address))
    }
}

extension UnownedReference: Sendable where Object: Sendable {}

extension UnownedReference: Equatable {
    /// Identity: whether both name the same object.
    @inlinable
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.unmanaged.toOpaque() == rhs.unmanaged.toOpaque()
    }
}

extension UnownedReference: AtomicRepresentable {
    @usableFromInline typealias AtomicRepresentation = Unmanaged<Object>.AtomicRepresentation

    @inlinable
    static func encodeAtomicRepresentation(_ value: consuming Self) -> AtomicRepresentation {
        Unmanaged<Object>.encodeAtomicRepresentation(value.unmanaged)
    }

    @inlinable
    static func decodeAtomicRepresentation(_ storage: consuming AtomicRepresentation) -> Self {
        Self(unmanaged: Unmanaged<Object>.decodeAtomicRepresentation(storage))
    }
}

extension UnownedReference: AtomicOptionalRepresentable {
    @usableFromInline typealias AtomicOptionalRepresentation = Unmanaged<Object>.AtomicOptionalRepresentation

    @inlinable
    static func encodeAtomicOptionalRepresentation(_ value: consuming Self?) -> AtomicOptionalRepresentation {
        Unmanaged<Object>.encodeAtomicOptionalRepresentation(value.map { $0.unmanaged })
    }

    @inlinable
    static func decodeAtomicOptionalRepresentation(_ storage: consuming AtomicOptionalRepresentation) -> Self? {
        Unmanaged<Object>.decodeAtomicOptionalRepresentation(storage).map { Self(unmanaged: $0) }
    }
}
