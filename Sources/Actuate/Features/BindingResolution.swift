import Synchronization

/// What a binding resolves to on its first dispatch: its feature's and action's metadata and the marker of
/// its action's queue, so that later dispatches need no registry lookup.
@usableFromInline
final class ResolvedBinding: Sendable {
    @usableFromInline let feature: FeatureMetadata
    /// The action's metadata, or nil when the feature never declared the action.
    @usableFromInline let action: ActionMetadata?
    @usableFromInline let queueMarker: DispatchQueueMarker
    @usableFromInline let generation: UInt64

    init(feature: FeatureMetadata, action: ActionMetadata?, queueMarker: DispatchQueueMarker, generation: UInt64) {
        self.feature = feature
        self.action = action
        self.queueMarker = queueMarker
        self.generation = generation
    }
}

/// The lazily filled cache of one binding value.
///
/// A `Mutex` rather than `AtomicLazyReference`: the mutex's uncontended path is inlined here, while the lazy
/// reference's `load()` is an unspecialized generic that looks up `Unmanaged` metadata on every call.
@usableFromInline
final class BindingCache: Sendable {
    private let resolved = Mutex<ResolvedBinding?>(nil)

    @usableFromInline
    init() {}

    /// The cached resolution, if it is still current.
    @inlinable
    func current() -> ResolvedBinding? {
        guard let resolved = load(), resolved.generation == FeatureRegistry.shared.generation else { return nil }
        return resolved
    }

    @usableFromInline
    func load() -> ResolvedBinding? {
        resolved.withLock { $0 }
    }

    /// Resolves the binding through the registry, caching the result while the registry does not change.
    @usableFromInline
    func resolve<F: FeatureDefinition, A: Action>(_ feature: F.Type, _ action: A.Type) -> ResolvedBinding {
        let generation = FeatureRegistry.shared.generation
        let metadata = FeatureRegistry.shared.metadata(for: feature)
        let resolution = ResolvedBinding(
            feature: metadata,
            action: metadata.action(typeID: ObjectIdentifier(action)),
            queueMarker: DispatchQueueMarker.marker(for: A.queue),
            generation: generation
        )
        return resolved.withLock { cached in
            if let cached, cached.generation == generation { return cached }
            cached = resolution
            return resolution
        }
    }
}
