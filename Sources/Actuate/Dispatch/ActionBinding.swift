/// A handle that performs one action of one feature: a ``StaticActionBinding``, or the
/// ``VerifiedActionBinding`` a ``ConditionalActionBinding`` gives while its feature is available.
///
/// A binding's `perform` spellings live in this file and ``ActionSession``'s in `ActionSession.swift`; each forwards
/// to one of two implementations: the callback form to `ActionSession.dispatch`, the `async` form to
/// `ActionSession.performDetailed(_:input:presenter:userInitiated:source:)`. A binding's own `perform` uses the
/// action's ``Action/defaultSession``; ``ActionSession``'s `perform` takes the binding and runs it in that session.
///
/// ```swift
/// CartFeature.addItem.perform(input: "sku-1", presenter: cartView) { outcome in print(outcome.isSuccess) }
/// let outcome = await CartFeature.addItem.perform(input: "sku-1", presenter: cartView)
/// await AccountFeature.refresh.perform()                               // no input, no presenter
/// await session.perform(CartFeature.addItem, input: "sku-1", presenter: cartView)
/// ```
public protocol ActionBinding<FeatureType, ActionType>: Sendable {
    /// The feature the action belongs to.
    associatedtype FeatureType: FeatureDefinition
    /// The action.
    associatedtype ActionType: Action

    /// The static binding that performs the action.
    var binding: StaticActionBinding<FeatureType, ActionType> { get }
}

extension ActionBinding {
    /// Performs the action in its default session, calling `completion` once when it has completed.
    ///
    /// `completion` runs on the thread that completed the action (the action's queue when it completed
    /// synchronously), after every plugin has heard the outcome.
    /// - Parameters:
    ///   - input: The input.
    ///   - presenter: The presenter the action drives.
    ///   - userInitiated: Whether the user asked for this directly. The default is `true`.
    ///   - source: Where the request came from. The default is ``ActionSource/application``.
    ///   - completion: Called once with the outcome.
    @inlinable
    public func perform(
        input: ActionType.InputType,
        presenter: ActionType.PresenterType,
        userInitiated: Bool = true,
        source: ActionSource = .application,
        completion: (@Sendable (ActionOutcome) -> Void)?
    ) {
        guard let session = ActionType.defaultSession else {
            ActionDispatcher.shared.reportMissingSession(
                ActionType.self,
                completion: ActionSession.simplifying(completion)
            )
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
    ///
    /// Cancelling the awaiting task cancels an ``AsyncAction``'s body; the outcome is then a failure with
    /// ``ActionCancellationError``.
    /// - Parameters:
    ///   - input: The input.
    ///   - presenter: The presenter the action drives.
    ///   - userInitiated: Whether the user asked for this directly. The default is `true`.
    ///   - source: Where the request came from. The default is ``ActionSource/application``.
    /// - Returns: The outcome.
    @inlinable
    @discardableResult
    public func perform(
        input: ActionType.InputType,
        presenter: ActionType.PresenterType,
        userInitiated: Bool = true,
        source: ActionSource = .application
    ) async -> ActionOutcome {
        guard let session = ActionType.defaultSession else {
            return .failure(error: ActuateError.missingSession(action: ActionType.name))
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

extension ActionBinding where ActionType.InputType == NoInput {
    /// Performs an action that takes no input.
    @inlinable
    public func perform(presenter: ActionType.PresenterType, completion: (@Sendable (ActionOutcome) -> Void)?) {
        perform(input: .noInput, presenter: presenter, completion: completion)
    }

    /// Performs an action that takes no input, and returns its outcome.
    @inlinable
    @discardableResult
    public func perform(presenter: ActionType.PresenterType) async -> ActionOutcome {
        await perform(input: .noInput, presenter: presenter)
    }
}

extension ActionBinding where ActionType.PresenterType == NoPresenter {
    /// Performs an action that drives no presenter.
    @inlinable
    public func perform(input: ActionType.InputType, completion: (@Sendable (ActionOutcome) -> Void)?) {
        perform(input: input, presenter: (), completion: completion)
    }

    /// Performs an action that drives no presenter, and returns its outcome.
    @inlinable
    @discardableResult
    public func perform(input: ActionType.InputType) async -> ActionOutcome {
        await perform(input: input, presenter: ())
    }
}

extension ActionBinding where ActionType.InputType == NoInput, ActionType.PresenterType == NoPresenter {
    /// Performs an action that takes no input and drives no presenter.
    @inlinable
    public func perform(completion: (@Sendable (ActionOutcome) -> Void)?) {
        perform(input: .noInput, presenter: (), completion: completion)
    }

    /// Performs an action that takes no input and drives no presenter, and returns its outcome.
    @inlinable
    @discardableResult
    public func perform() async -> ActionOutcome {
        await perform(input: .noInput, presenter: ())
    }
}
