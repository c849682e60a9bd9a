/// An immutable array of objects that it owns, each lent to a closure without counting a reference.
///
/// Reading an element of an ordinary `[Object]` and calling it retains and releases the object; this type keeps
/// the objects in an ordinary array, which owns them, beside the same objects as ``UnownedReference``s, which
/// ``withObject(at:_:)`` reads. The rule it keeps: a value of this type owns every object it lends, so an object
/// lent while the caller holds the value (a `let` of a live object, or a local) is alive.
@usableFromInline
struct OwnedObjects<Object: AnyObject & Sendable>: Sendable {
    /// The objects, counted: what keeps them alive.
    @usableFromInline let owned: [Object]
    /// The same objects, uncounted. Safe to read while this value exists: `owned` keeps each alive.
    @usableFromInline let unretained: [UnownedReference<Object>]

    /// Takes ownership of `objects`.
    @inlinable
    init(_ objects: [Object]) {
        self.owned = objects
        self.unretained = objects.map { UnownedReference($0) }
    }

    /// The number of objects.
    @inlinable
    var count: Int { owned.count }

    /// Lends the object at `index` to `body` without counting a reference.
    ///
    /// - Precondition: `index` is in `0..<count` (checked).
    @inlinable @inline(__always)
    func withObject<Result>(at index: Int, _ body: (Object) throws -> Result) rethrows -> Result {
        try unretained[index].withObject(body)
    }
}
