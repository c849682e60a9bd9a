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

    /// The feature as a ``FeatureGroup``, or nil. ``FeatureGroup`` provides it: do not implement it.
    ///
    /// Setup reads these three kinds instead of asking the runtime (`as? any FeatureGroup.Type`), whose first answer
    /// about a type scans every protocol conformance record of every loaded image (290,000 instructions a question
    /// here, three per feature at every launch). The witness is chosen where the type conforms to
    /// ``FeatureDefinition``, so setup trusts a nil answer only from a struct, an enum or a class without a
    /// superclass, and only when the type is not generic; for a subclass or a generic type it asks the runtime, which
    /// sees the subclass's own conformances and conditional ones. A conformance declared in another
    /// module than the type's ``FeatureDefinition`` conformance is not seen: declare a feature's kinds in the module
    /// that declares the feature. Swift 6 warns about such a retroactive conformance (SE-0364) when the type and the
    /// protocol both come from other packages, but not between two modules of one package.
    static var _featureGroup: (any FeatureGroup.Type)? { get }

    /// The feature as a ``ConditionalFeature``, or nil. ``ConditionalFeature`` provides it: do not implement it.
    ///
    /// Read instead of a runtime cast, with the same limits as `_featureGroup`.
    static var _conditionalFeature: (any ConditionalFeature.Type)? { get }

    /// The feature as a ``URLMapped`` feature, or nil. ``URLMapped`` provides it: do not implement it.
    ///
    /// Read instead of a runtime cast, with the same limits as `_featureGroup`.
    static var _urlMapped: (any URLMapped.Type)? { get }
}

extension FeatureDefinition {
    public static var name: String {
        TypeNaming.displayName(of: self, removingSuffix: "Feature")
    }

    public static var description: String { "" }

    public static var isVisible: Bool { true }

    public static func prepare(actions: FeatureActionsBuilder) {}

    /// Nil: a feature is not a group unless it conforms to ``FeatureGroup``.
    public static var _featureGroup: (any FeatureGroup.Type)? { nil }

    /// Nil: a feature has no constraints unless it conforms to ``ConditionalFeature``.
    public static var _conditionalFeature: (any ConditionalFeature.Type)? { nil }

    /// Nil: a feature has no routes unless it conforms to ``URLMapped``.
    public static var _urlMapped: (any URLMapped.Type)? { nil }

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

extension FeatureGroup {
    /// The group itself: the witness setup reads instead of a runtime cast.
    public static var _featureGroup: (any FeatureGroup.Type)? { self }
}
