/// The static description of a feature: its name, whether users see it, and the actions it declares.
///
/// Don't conform to this directly; conform to ``Feature``, ``FeatureGroup`` or `ConditionalFeature`.
public protocol FeatureDefinition: SendableMetatype {
    /// The display name. The default is the type name split at CamelCase boundaries without the trailing
    /// `Feature`, so `ShoppingCartFeature` gives "Shopping Cart".
    static var name: String { get }

    /// A description for catalogs and debug tools.
    static var description: String { get }

    /// Whether the feature appears in catalogs and UIs. The default is `true`.
    static var isVisible: Bool { get }

    /// Declares the feature's actions. Called once per process, the first time the feature is used or when
    /// its group is registered.
    ///
    /// <!-- readme: in extension WishlistFeature -->
    /// ```swift
    /// static func prepare(actions: FeatureActionsBuilder) {
    ///     actions.declare(addItem)
    ///     actions.publish(checkout)
    /// }
    /// ```
    static func prepare(actions: FeatureActionsBuilder)
}

extension FeatureDefinition {
    public static var name: String {
        TypeNaming.displayName(of: self, removingSuffix: "Feature")
    }

    public static var description: String { "" }

    public static var isVisible: Bool { true }

    public static func prepare(actions: FeatureActionsBuilder) {}

    /// The feature's identifier: its path through the groups it was registered under.
    public static var identifier: FeaturePath {
        FeatureRegistry.shared.metadata(for: self).path
    }
}

/// A feature that is always available.
///
/// ```swift
/// final class ShoppingCartFeature: Feature {
///     static let addItem = action(AddItemAction.self)
///     static func prepare(actions: FeatureActionsBuilder) {
///         actions.declare(addItem)
///     }
/// }
/// ```
public protocol Feature: FeatureDefinition {}

extension Feature {
    /// A binding of `action` to this feature, through which the action is performed.
    public static func action<A: Action>(_ action: A.Type) -> StaticActionBinding<Self, A> {
        StaticActionBinding()
    }
}

/// A feature that groups other features; its subfeatures' identifiers start with its own.
public protocol FeatureGroup: FeatureDefinition {
    /// The features in this group.
    static var subfeatures: [any FeatureDefinition.Type] { get }
}
