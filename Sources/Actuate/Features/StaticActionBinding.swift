/// An action bound to the feature that declares it: the handle through which app code performs it.
///
/// ```swift
/// await ShoppingCartFeature.addItem.perform(input: "sku-1", presenter: cartView)
/// ```
///
/// A binding's `perform` uses the action's ``Action/defaultSession``; to choose a session, call
/// ``ActionSession/perform(_:input:presenter:userInitiated:source:completion:)`` with the binding. Every
/// `perform` spelling is declared once, for every binding, by ``ActionBinding``.
public struct StaticActionBinding<F: FeatureDefinition, A: Action>: ActionBinding, CustomStringConvertible {
    public typealias FeatureType = F
    public typealias ActionType = A

    /// Resolved metadata, filled on the first dispatch. Keep bindings in `static let`s so that it is reused.
    @usableFromInline let cache: BindingCache

    /// Creates the binding. Prefer `Feature.action(_:)`.
    @inlinable
    public init() {
        self.cache = BindingCache()
    }

    /// The binding's metadata and queue, resolved once: valid while the caller holds this binding.
    @inlinable
    func resolved() -> UnownedReference<ResolvedBinding> {
        cache.current() ?? cache.resolve(F.self, A.self)
    }

    /// The feature type.
    package var feature: F.Type { F.self }

    /// The action type.
    package var action: A.Type { A.self }

    public var description: String { "\(F.name) › \(A.name)" }

    /// The binding itself: a static binding performs its action directly.
    @inlinable
    public var binding: StaticActionBinding<F, A> { self }
}
