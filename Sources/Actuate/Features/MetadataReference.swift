/// A reference to a feature's or an action's metadata that counts no reference to copy, store or compare.
///
/// Metadata lives for the life of the process: the registry keeps every ``FeatureMetadata`` and
/// ``ActionMetadata`` it ever made. So a reference from ``RequestHeader/featureReference`` or
/// ``RequestHeader/actionReference`` stays valid however long a plugin keeps it, and a plugin that keeps a
/// record per request, or reads one field on every dispatch, stores or reads it without the two atomic
/// operations a counted reference costs. Only Actuate makes these references, from registry metadata.
///
/// ```swift
/// func actionName<F, A>(of request: ActionRequest<F, A>) -> String {  // in a plugin's actionWillBegin
///     request.header.actionReference.withMetadata { $0.name }
/// }
/// ```
///
/// Two references are equal when they name the same metadata object.
public struct MetadataReference<Metadata: AnyObject & Sendable>: Sendable, Hashable {
    // Unretained is safe: made only from registry metadata, which `FeatureRegistry.shared` keeps alive for the
    // life of the process (see Internal/OWNERSHIP.md).
    @usableFromInline let reference: UnownedReference<Metadata>

    @inlinable
    init(_ reference: UnownedReference<Metadata>) {
        self.reference = reference
    }

    /// The metadata, as a counted reference the caller may keep.
    @inlinable public var metadata: Metadata { reference.object }

    /// Lends the metadata to `body` without counting a reference.
    ///
    /// - Parameter body: Reads the metadata.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    public func withMetadata<Result>(_ body: (Metadata) throws -> Result) rethrows -> Result {
        try reference.withObject(body)
    }

    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.reference == rhs.reference }

    @inlinable
    public func hash(into hasher: inout Hasher) { hasher.combine(reference.address) }
}
