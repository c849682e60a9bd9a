import Dispatch

/// What Actuate knows about an action type, computed once when its feature is prepared; its type names are made
/// when they are read.
public final class ActionMetadata: Sendable {
    /// The display name, from ``Action/name``.
    public let name: String
    /// The Swift type name.
    ///
    /// Made from the action type on each read: setup prepares every action of an app and most names are never
    /// read, or only by catalogs and debug tools (500 actions' type names cost 2 to 3 million instructions at
    /// launch).
    public var typeName: String { TypeNaming.name(of: actionType) }
    /// The action's description.
    package let description: String
    /// Whether the feature published the action.
    package let isPublished: Bool
    /// The input type's name, made on each read (like ``typeName``). Reading `InputType` from the action's
    /// conformance takes the runtime's slow path for an associated type, about 2,000 instructions the first time.
    package var inputTypeName: String { Self.inputTypeName(of: actionType) }
    /// The presenter type's name, `NoPresenter` for `Void`, made on each read (like ``inputTypeName``).
    package var presenterTypeName: String { Self.presenterTypeName(of: actionType) }
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
        self.description = A.description
        self.isPublished = published
        self.queueLabel = A.queue.label
    }

    private static func inputTypeName<A: Action>(of action: A.Type) -> String {
        TypeNaming.name(of: A.InputType.self)
    }

    private static func presenterTypeName<A: Action>(of action: A.Type) -> String {
        let presenter = TypeNaming.name(of: A.PresenterType.self)
        return presenter == "()" ? "NoPresenter" : presenter
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
