import Synchronization

/// What a binding resolves to on its first dispatch: its feature's and action's metadata and the marker of
/// its action's queue, so that later dispatches need no registry lookup.
@usableFromInline
final class ResolvedBinding: Sendable {
    // Unretained references are safe: the metadata comes from `FeatureRegistry.shared`, which keeps every
    // metadata it ever handed out alive for the life of the process (see `FeatureRegistry`), and the marker is
    // owned by `queueMarker`. Dispatches copy these references into requests without counting them.
    @usableFromInline let feature: UnownedReference<FeatureMetadata>
    /// The action's metadata, or nil when the feature never declared the action.
    @usableFromInline let action: UnownedReference<ActionMetadata>?
    /// The marker of the action's queue, unretained; ``queueMarker`` owns it.
    @usableFromInline let marker: UnownedReference<DispatchQueueMarker>
    let queueMarker: DispatchQueueMarker
    @usableFromInline let generation: UInt64
    /// Whether the action is an ``AsyncAction``, whose body an awaiting task runs itself: found once here, since
    /// the check is a lookup in the runtime's conformance cache (about 300 instructions).
    @usableFromInline let isAsyncAction: Bool

    init(
        feature: FeatureMetadata,
        action: ActionMetadata?,
        queueMarker: DispatchQueueMarker,
        generation: UInt64,
        isAsyncAction: Bool
    ) {
        self.feature = UnownedReference(feature)
        self.action = action.map(UnownedReference.init)
        self.marker = UnownedReference(queueMarker)
        self.queueMarker = queueMarker
        self.generation = generation
        self.isAsyncAction = isAsyncAction
    }
}

/// The lazily filled cache of one binding value.
///
/// A dispatch reads it with one atomic load of an immutable ``ResolvedBinding`` and takes no lock and no
/// reference count. Resolving (the first dispatch, and the first after the registry replaced metadata)
/// publishes a new resolution under a lock; every resolution ever published stays in ``resolutions`` until
/// the cache itself is deinitialized, so the pointer a reader loaded stays valid for as long as the reader
/// holds the binding, which holds the cache.
@usableFromInline
final class BindingCache: Sendable {
    /// The newest resolution, or nil before the first dispatch. Never released through this reference: the
    /// object is owned by ``resolutions``.
    @usableFromInline let latest = Atomic<UnownedReference<ResolvedBinding>?>(nil)
    /// Owns every resolution published through ``latest``; only ever appended to.
    private let resolutions = Mutex<[ResolvedBinding]>([])

    @usableFromInline
    init() {}

    /// The cached resolution, if it is still current: valid while the caller holds this cache.
    @inlinable
    func current() -> UnownedReference<ResolvedBinding>? {
        guard let latest = latest.load(ordering: .acquiring),
            latest.withObject({ $0.generation }) == FeatureRegistry.currentGeneration
        else { return nil }
        return latest
    }

    /// The number of resolutions published so far, for tests.
    var publishedCount: Int { resolutions.withLock { $0.count } }

    /// Resolves the binding through the registry and publishes the result while the registry does not change.
    ///
    /// - Returns: The current resolution, valid while the caller holds this cache.
    @usableFromInline
    func resolve<F: FeatureDefinition, A: Action>(
        _ feature: F.Type,
        _ action: A.Type
    ) -> UnownedReference<ResolvedBinding> {
        let generation = FeatureRegistry.shared.generation
        let metadata = FeatureRegistry.shared.metadata(for: feature)
        let resolution = ResolvedBinding(
            feature: metadata,
            action: metadata.action(typeID: ObjectIdentifier(action)),
            queueMarker: DispatchQueueMarker.marker(for: A.queue),
            generation: generation,
            isAsyncAction: A.self is any AsyncAction.Type
        )
        return resolutions.withLock { owned in
            if let cached = latest.load(ordering: .acquiring),
                cached.withObject({ $0.generation }) == generation
            {
                return cached
            }
            owned.append(resolution)
            let published = UnownedReference(resolution)
            latest.store(published, ordering: .releasing)
            return published
        }
    }
}
