/// Collects the actions a feature declares in ``FeatureDefinition/prepare(actions:)``.
public final class FeatureActionsBuilder {
    private(set) var declared: [ActionMetadata] = []

    init() {}

    /// Declares an action of the feature, so that it may be performed.
    public func declare<F: FeatureDefinition, A: Action>(_ binding: StaticActionBinding<F, A>) {
        add(A.self, published: false)
    }

    /// Declares an action and publishes it: published actions appear in catalogs and UIs.
    public func publish<F: FeatureDefinition, A: Action>(_ binding: StaticActionBinding<F, A>) {
        add(A.self, published: true)
    }

    /// Declares an action by its type, for bindings that are not ``StaticActionBinding`` values.
    package func declare<A: Action>(_ action: A.Type, published: Bool = false) {
        add(action, published: published)
    }

    private func add<A: Action>(_ action: A.Type, published: Bool) {
        if let index = declared.firstIndex(where: { $0.typeID == ObjectIdentifier(action) }) {
            if published { declared[index] = ActionMetadata(action, published: true) }
            return
        }
        declared.append(ActionMetadata(action, published: published))
    }
}
