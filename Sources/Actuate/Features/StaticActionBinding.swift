/// An action bound to the feature that declares it: the handle through which app code performs it.
///
/// ```swift
/// await ShoppingCartFeature.addItem.perform(input: product, presenter: cartView)
/// ```
///
/// A binding's `perform` uses the action's ``Action/defaultSession``; to choose a session, call
/// ``ActionSession/perform(_:input:presenter:userInitiated:source:completion:)-(StaticActionBinding<F,A>,_,_,_,_,_)``
/// with the binding.
public struct StaticActionBinding<F: FeatureDefinition, A: Action>: Sendable, CustomStringConvertible {
    /// Resolved metadata, filled on the first dispatch. Keep bindings in `static let`s so that it is reused.
    @usableFromInline let cache: BindingCache

    /// Creates the binding. Prefer `Feature.action(_:)`.
    @inlinable
    public init() {
        self.cache = BindingCache()
    }

    /// The binding's metadata and queue, resolved once.
    @inlinable
    func resolved() -> ResolvedBinding {
        cache.current() ?? cache.resolve(F.self, A.self)
    }

    /// The feature type.
    public var feature: F.Type { F.self }

    /// The action type.
    public var action: A.Type { A.self }

    public var description: String { "\(F.name) › \(A.name)" }

    /// Performs the action in its default session, calling `completion` once when it has completed.
    @inlinable
    public func perform(
        input: A.InputType,
        presenter: A.PresenterType,
        userInitiated: Bool = true,
        source: ActionSource = .application,
        completion: (@Sendable (ActionOutcome) -> Void)? = nil
    ) {
        guard let session = A.defaultSession else {
            ActionDispatcher.shared.reportMissingSession(A.self, completion: ActionSession.simplifying(completion))
            return
        }
        session.perform(
            self,
            input: input,
            presenter: presenter,
            userInitiated: userInitiated,
            source: source,
            completion: completion
        )
    }

    /// Performs the action in its default session and returns its outcome.
    @inlinable
    @discardableResult
    public func perform(
        input: A.InputType,
        presenter: A.PresenterType,
        userInitiated: Bool = true,
        source: ActionSource = .application
    ) async -> ActionOutcome {
        guard let session = A.defaultSession else {
            return .failure(error: ActuateError.missingSession(action: A.name))
        }
        return await session.perform(
            self,
            input: input,
            presenter: presenter,
            userInitiated: userInitiated,
            source: source
        )
    }
}

extension StaticActionBinding where A.InputType == NoInput {
    /// Performs an action that takes no input.
    @inlinable
    public func perform(presenter: A.PresenterType, completion: (@Sendable (ActionOutcome) -> Void)? = nil) {
        perform(input: .noInput, presenter: presenter, completion: completion)
    }

    /// Performs an action that takes no input, and returns its outcome.
    @inlinable
    @discardableResult
    public func perform(presenter: A.PresenterType) async -> ActionOutcome {
        await perform(input: .noInput, presenter: presenter)
    }
}

extension StaticActionBinding where A.PresenterType == NoPresenter {
    /// Performs an action that drives no presenter.
    @inlinable
    public func perform(input: A.InputType, completion: (@Sendable (ActionOutcome) -> Void)? = nil) {
        perform(input: input, presenter: (), completion: completion)
    }

    /// Performs an action that drives no presenter, and returns its outcome.
    @inlinable
    @discardableResult
    public func perform(input: A.InputType) async -> ActionOutcome {
        await perform(input: input, presenter: ())
    }
}

extension StaticActionBinding where A.InputType == NoInput, A.PresenterType == NoPresenter {
    /// Performs an action that takes no input and drives no presenter.
    @inlinable
    public func perform(completion: (@Sendable (ActionOutcome) -> Void)? = nil) {
        perform(input: .noInput, presenter: (), completion: completion)
    }

    /// Performs an action that takes no input and drives no presenter, and returns its outcome.
    @inlinable
    @discardableResult
    public func perform() async -> ActionOutcome {
        await perform(input: .noInput, presenter: ())
    }
}
