/// A feature that is available only when its constraints hold: platforms, runtime flags, user toggles,
/// permissions and purchases.
///
/// Its actions are reached through ``ConditionalActionBinding/request(from:)``, which returns nil while the
/// feature is not available, so code cannot perform them by mistake:
///
/// ```swift
/// final class ScannerFeature: ConditionalFeature {
///     static let scan = action(ScanAction.self)
///
///     static func constraints(requirements: FeatureConstraintsBuilder) {
///         requirements.platform(.iOS(18), .linux)
///         requirements.permission(.camera)
///     }
///
///     static func prepare(actions: FeatureActionsBuilder) {
///         actions.declare(scan)
///     }
/// }
///
/// if let scan = ScannerFeature.scan.request(from: system.availability) {
///     await scan.perform()
/// }
/// ```
///
/// A feature is available only once it has been registered with a ``FeatureAvailability`` (an
/// `ActuateSystem` registers its group), and only while its group is available.
public protocol ConditionalFeature: FeatureDefinition {
    /// Declares the conditions the feature needs. Called once per ``FeatureAvailability``.
    ///
    /// - Parameter requirements: The builder to declare them on.
    static func constraints(requirements: FeatureConstraintsBuilder)

    /// The answer of ``FeatureConstraintsBuilder/runtimeEnabled()``: nil while not known. The default is nil,
    /// so a feature that declares `runtimeEnabled()` must implement it.
    static var isEnabled: Bool? { get }
}

extension ConditionalFeature {
    public static var isEnabled: Bool? { nil }

    /// A binding of `action` to this feature, to request before performing.
    public static func action<A: Action>(_ action: A.Type) -> ConditionalActionBinding<Self, A> {
        ConditionalActionBinding()
    }
}

/// An action of a ``ConditionalFeature``: request it to get a binding you can perform.
public struct ConditionalActionBinding<F: ConditionalFeature, A: Action>: Sendable, CustomStringConvertible {
    /// Creates the binding. Prefer `ConditionalFeature.action(_:)`.
    init() {}

    /// The feature type.
    package var feature: F.Type { F.self }

    /// The action type.
    package var action: A.Type { A.self }

    public var description: String { "\(F.name) › \(A.name) (conditional)" }

    /// A performable binding if the feature is available in `availability` now, or nil when it is not, is
    /// not yet known to be, or was never registered there.
    ///
    /// - Parameter availability: The availability to consult, usually an `ActuateSystem`'s `availability`.
    /// - Returns: The verified binding, or nil.
    public func request(from availability: FeatureAvailability) -> VerifiedActionBinding<F, A>? {
        availability.isAvailable(F.self) == true ? VerifiedActionBinding(StaticActionBinding()) : nil
    }
}

extension FeatureActionsBuilder {
    /// Declares an action of a conditional feature, so that it may be performed once requested.
    public func declare<F: ConditionalFeature, A: Action>(_ binding: ConditionalActionBinding<F, A>) {
        declare(A.self, published: false)
    }

    /// Declares an action of a conditional feature and publishes it.
    public func publish<F: ConditionalFeature, A: Action>(_ binding: ConditionalActionBinding<F, A>) {
        declare(A.self, published: true)
    }
}

extension ConditionalFeature {
    /// The feature itself: the witness setup reads instead of a runtime cast.
    public static var _conditionalFeature: (any ConditionalFeature.Type)? { self }
}
