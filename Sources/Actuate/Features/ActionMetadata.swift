import Dispatch

/// What Actuate knows about an action type, computed once when its feature is prepared.
public final class ActionMetadata: Sendable {
    /// The display name, from ``Action/name``.
    public let name: String
    /// The Swift type name.
    public let typeName: String
    /// The action's description.
    package let description: String
    /// Whether the feature published the action.
    package let isPublished: Bool
    /// The input type's name.
    package let inputTypeName: String
    /// The presenter type's name.
    package let presenterTypeName: String
    /// The label of the action's queue.
    public let queueLabel: String

    let typeID: ObjectIdentifier
    /// The action type, for the catalog, which describes its static members.
    let actionType: any Action.Type
    /// The action's ``ActionTrait`` values, resolved here for every trait made so far.
    @usableFromInline let traits: ActionTraitStore

    init<A: Action>(_ action: A.Type, published: Bool) {
        self.typeID = ObjectIdentifier(action)
        self.actionType = action
        self.traits = ActionTraitStore(action: action)
        self.name = A.name
        self.typeName = TypeNaming.name(of: action)
        self.description = A.description
        self.isPublished = published
        self.inputTypeName = TypeNaming.name(of: A.InputType.self)
        let presenter = TypeNaming.name(of: A.PresenterType.self)
        self.presenterTypeName = presenter == "()" ? "NoPresenter" : presenter
        self.queueLabel = A.queue.label
    }
}

extension ActionMetadata {
    /// The action's value of `trait`, or nil when the action does not have it.
    @inlinable
    package func trait<Value>(_ trait: ActionTrait<Value>) -> Value? {
        traits.value(of: trait)
    }
}

/// What Actuate knows about a feature type, computed once when it is prepared.
public final class FeatureMetadata: Sendable {
    /// Prepares `group` and, recursively, its subfeatures, so that their paths start with the group's: what a
    /// system does at setup. Nothing is prepared when two different types of the group would have the same path.
    ///
    /// - Parameter group: A feature group, or a single feature.
    /// - Returns: The metadata of every feature in the group, the group first.
    /// - Throws: ``FeaturePathClash`` naming the path and both full type names.
    @discardableResult
    public static func prepare(_ group: any FeatureDefinition.Type) throws(FeaturePathClash) -> [FeatureMetadata] {
        try FeatureRegistry.shared.register(group)
    }

    /// The display name, from ``FeatureDefinition/name``.
    public let name: String
    /// The identifier: the path through the groups it was registered under.
    public let path: FeaturePath
    /// The full Swift type name, such as `MyApp.Books.SearchFeature`.
    package let typeName: String
    /// The feature's description.
    package let description: String
    /// Whether the feature appears in catalogs and UIs.
    package let isVisible: Bool
    /// The declared actions, in declaration order.
    package let actions: [ActionMetadata]
    /// The identifier of the group the feature was registered under, if any.
    package let parentPath: FeaturePath?

    let typeID: ObjectIdentifier
    private let actionsByType: [ObjectIdentifier: ActionMetadata]

    init<F: FeatureDefinition>(_ feature: F.Type, parentPath: FeaturePath?) {
        self.typeID = ObjectIdentifier(feature)
        self.name = F.name
        self.typeName = TypeNaming.name(of: feature, qualified: true)
        let component = FeaturePath.component(for: feature)
        self.path = parentPath?.appending(component) ?? FeaturePath([component])
        self.parentPath = parentPath
        self.description = F.description
        self.isVisible = F.isVisible
        let builder = FeatureActionsBuilder()
        F.prepare(actions: builder)
        self.actions = builder.declared
        self.actionsByType = Dictionary(
            builder.declared.map { ($0.typeID, $0) },
            uniquingKeysWith: { first, _ in first }
        )
    }

    /// The metadata of a declared action, or nil if the feature never declared it.
    @usableFromInline
    func action(typeID: ObjectIdentifier) -> ActionMetadata? {
        actionsByType[typeID]
    }
}
