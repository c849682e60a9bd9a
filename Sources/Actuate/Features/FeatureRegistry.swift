import Synchronization

/// The process-wide cache of feature metadata.
///
/// Metadata is a pure function of the feature types, so sharing it between tests is safe: each feature is
/// prepared once, lazily on first use, or when its group is registered (which gives it its full path).
///
/// Internal: apps reach metadata through `ActuateSystem.features`, ``FeatureDefinition/identifier`` and the
/// requests plugins receive.
@usableFromInline
final class FeatureRegistry: Sendable {
    /// The process-wide registry.
    @usableFromInline static let shared = FeatureRegistry()

    /// The current metadata of each prepared feature, and every metadata it replaced.
    ///
    /// Metadata the registry ever handed out stays alive for the life of the process (the registry is
    /// process-wide): requests and timeline records hold it `unowned(unsafe)`, so that a dispatch counts no
    /// references. A feature's metadata is replaced at most once per group it is registered under, so the
    /// retired list stays as small as the app's feature list.
    private struct Entries {
        var current: [ObjectIdentifier: FeatureMetadata] = [:]
        var retired: [FeatureMetadata] = []
    }

    private let features = Mutex(Entries())
    /// Static, so that a dispatch reads it with one load and without touching the registry object.
    @usableFromInline static let generationCounter = Atomic<UInt64>(0)

    /// Increases whenever a feature's metadata is replaced, which invalidates cached binding resolutions.
    @usableFromInline
    var generation: UInt64 { Self.currentGeneration }

    /// ``generation``, read without the registry instance.
    @inlinable
    static var currentGeneration: UInt64 { generationCounter.load(ordering: .acquiring) }

    init() {}

    /// Prepares `group` and, recursively, its subfeatures, so that their paths start with the group's.
    ///
    /// Nothing is prepared when two different types of the group would have the same path.
    /// - Parameter group: A feature group, or a single feature.
    /// - Returns: The metadata of every feature in the group, the group first.
    /// - Throws: ``FeaturePathClash`` naming the path and both full type names.
    @discardableResult
    func register(_ group: any FeatureDefinition.Type) throws(FeaturePathClash) -> [FeatureMetadata] {
        try Self.checkUniquePaths(in: group)
        var registered: [FeatureMetadata] = []
        register(group, parentPath: nil, into: &registered)
        return registered
    }

    /// Throws when two different types of `group` would have the same path.
    static func checkUniquePaths(in group: any FeatureDefinition.Type) throws(FeaturePathClash) {
        var owners: [FeaturePath: any FeatureDefinition.Type] = [:]
        var pending: [(any FeatureDefinition.Type, FeaturePath?)] = [(group, nil)]
        while let (feature, parentPath) = pending.popLast() {
            let component = FeaturePath.component(for: feature)
            let path = parentPath?.appending(component) ?? FeaturePath([component])
            if let owner = owners[path] {
                guard ObjectIdentifier(owner) == ObjectIdentifier(feature) else {
                    throw FeaturePathClash(
                        path: path,
                        firstTypeName: String(reflecting: owner),
                        secondTypeName: String(reflecting: feature)
                    )
                }
                continue
            }
            owners[path] = feature
            if let subgroup = FeatureKinds.group(of: feature) {
                pending += subgroup.subfeatures.reversed().map { ($0, path) }
            }
        }
    }

    /// The metadata of `feature`, preparing it if this is its first use.
    func metadata<F: FeatureDefinition>(for feature: F.Type) -> FeatureMetadata {
        let id = ObjectIdentifier(feature)
        if let existing = features.withLock({ $0.current[id] }) { return existing }
        let prepared = FeatureMetadata(feature, parentPath: nil)
        return features.withLock { features in
            if let existing = features.current[id] { return existing }
            features.current[id] = prepared
            return prepared
        }
    }

    /// Every feature prepared so far.
    var allFeatures: [FeatureMetadata] {
        features.withLock { Array($0.current.values) }.sorted { $0.path.description < $1.path.description }
    }

    private func register(
        _ feature: any FeatureDefinition.Type,
        parentPath: FeaturePath?,
        into registered: inout [FeatureMetadata]
    ) {
        let metadata = prepare(feature, parentPath: parentPath)
        registered.append(metadata)
        if let group = FeatureKinds.group(of: feature) {
            for subfeature in group.subfeatures {
                register(subfeature, parentPath: metadata.path, into: &registered)
            }
        }
    }

    private func prepare<F: FeatureDefinition>(_ feature: F.Type, parentPath: FeaturePath?) -> FeatureMetadata {
        let id = ObjectIdentifier(feature)
        if let existing = features.withLock({ $0.current[id] }), existing.parentPath == parentPath || parentPath == nil
        {
            return existing
        }
        let prepared = FeatureMetadata(feature, parentPath: parentPath)
        return features.withLock { features in
            if let existing = features.current[id], existing.parentPath == parentPath { return existing }
            if let replaced = features.current[id] {
                features.retired.append(replaced)
                Self.generationCounter.add(1, ordering: .releasing)
            }
            features.current[id] = prepared
            return prepared
        }
    }
}
