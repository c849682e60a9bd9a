/// A named stream of actions, such as the UI's or a background sync's, performed through one dispatcher.
///
/// Sessions name where actions ran in the timeline, action stacks and analytics. ``main`` serves the app's
/// UI; tests create their own on their own dispatcher.
public final class ActionSession: Sendable {
    /// The app's main session, on the shared dispatcher.
    public static let main = ActionSession(named: "main", dispatcher: .shared)

    /// The session's name.
    public let name: String
    /// The dispatcher that performs the session's actions.
    public let dispatcher: ActionDispatcher

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - name: The name shown in the timeline and debug reports.
    ///   - dispatcher: The dispatcher that performs its actions; the shared one by default.
    public init(named name: String, dispatcher: ActionDispatcher = .shared) {
        self.name = name
        self.dispatcher = dispatcher
    }

    /// Performs an action in this session, calling `completion` once when it has completed.
    ///
    /// `completion` runs on the thread that completed the action: the action's queue when it completed
    /// synchronously, after every plugin has heard the outcome.
    /// - Parameters:
    ///   - binding: The feature's binding of the action.
    ///   - input: The input.
    ///   - presenter: The presenter the action drives.
    ///   - userInitiated: Whether the user asked for this directly. The default is `true`.
    ///   - source: Where the request came from. The default is ``ActionSource/application``.
    ///   - completion: Called once with the outcome.
    @inlinable
    public func perform<F: FeatureDefinition, A: Action>(
        _ binding: StaticActionBinding<F, A>,
        input: A.InputType,
        presenter: A.PresenterType,
        userInitiated: Bool = true,
        source: ActionSource = .application,
        completion: (@Sendable (ActionOutcome) -> Void)? = nil
    ) {
        dispatch(binding, input, presenter, userInitiated, source, completion: Self.simplifying(completion))
    }

    /// Performs an action in this session and returns its outcome.
    ///
    /// Cancelling the awaiting task cancels an ``AsyncAction``'s body; the outcome is then a failure with
    /// ``ActionCancellationError``.
    @inlinable
    @discardableResult
    public func perform<F: FeatureDefinition, A: Action>(
        _ binding: StaticActionBinding<F, A>,
        input: A.InputType,
        presenter: A.PresenterType,
        userInitiated: Bool = true,
        source: ActionSource = .application
    ) async -> ActionOutcome {
        await performDetailed(binding, input: input, presenter: presenter, userInitiated: userInitiated, source: source)
            .simplifiedOutcome
    }

    /// Performs an action and calls `completion` with the full outcome, including feature termination.
    @inlinable
    public func performDetailed<F: FeatureDefinition, A: Action>(
        _ binding: StaticActionBinding<F, A>,
        input: A.InputType,
        presenter: A.PresenterType,
        userInitiated: Bool = true,
        source: ActionSource = .application,
        completion: @escaping @Sendable (ActionPerformOutcome) -> Void
    ) {
        dispatch(binding, input, presenter, userInitiated, source, completion: .detailed(completion))
    }

    /// Performs an action and returns the full outcome, including feature termination.
    @inlinable
    public func performDetailed<F: FeatureDefinition, A: Action>(
        _ binding: StaticActionBinding<F, A>,
        input: A.InputType,
        presenter: A.PresenterType,
        userInitiated: Bool = true,
        source: ActionSource = .application
    ) async -> ActionPerformOutcome {
        let cancellation = ActionCancellation()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                dispatch(
                    binding, input, presenter, userInitiated, source, cancellation: cancellation,
                    completion: .detailed { continuation.resume(returning: $0) }
                )
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}

extension ActionSession {
    /// Hands one request to the dispatcher under this session's name: the step every `perform` shares.
    ///
    /// - Returns: The request's ``ActionRequest/uniqueID``, or nil when the feature never declared the action.
    @inlinable
    @discardableResult
    func dispatch<F: FeatureDefinition, A: Action>(
        _ binding: StaticActionBinding<F, A>,
        _ input: A.InputType,
        _ presenter: A.PresenterType,
        _ userInitiated: Bool,
        _ source: ActionSource,
        cancellation: ActionCancellation = .never,
        completion: CallerCompletion
    ) -> UInt64? {
        dispatcher.dispatch(
            binding,
            session: name,
            input: input,
            presenter: presenter,
            userInitiated: userInitiated,
            source: source,
            cancellation: cancellation,
            completion: completion
        )
    }

    /// Performs an action and calls `completion` with its full outcome, for the test kit: returns the request's
    /// ``ActionRequest/uniqueID`` (nil when the feature never declared the action), so that the harness matches
    /// completions and diagnostics to the request that caused them.
    package func performReturningID<F: FeatureDefinition, A: Action>(
        _ binding: StaticActionBinding<F, A>,
        input: A.InputType,
        presenter: A.PresenterType,
        userInitiated: Bool,
        source: ActionSource,
        completion: @escaping @Sendable (ActionPerformOutcome) -> Void
    ) -> UInt64? {
        dispatch(binding, input, presenter, userInitiated, source, completion: .detailed(completion))
    }

    @usableFromInline
    static func simplifying(_ completion: (@Sendable (ActionOutcome) -> Void)?) -> CallerCompletion {
        guard let completion else { return .none }
        return .simplified(completion)
    }

    /// Performs an action that takes no input.
    @inlinable
    public func perform<F: FeatureDefinition, A: Action>(
        _ binding: StaticActionBinding<F, A>,
        presenter: A.PresenterType,
        completion: (@Sendable (ActionOutcome) -> Void)? = nil
    ) where A.InputType == NoInput {
        perform(binding, input: .noInput, presenter: presenter, completion: completion)
    }

    /// Performs an action that drives no presenter.
    @inlinable
    public func perform<F: FeatureDefinition, A: Action>(
        _ binding: StaticActionBinding<F, A>,
        input: A.InputType,
        completion: (@Sendable (ActionOutcome) -> Void)? = nil
    ) where A.PresenterType == NoPresenter {
        perform(binding, input: input, presenter: (), completion: completion)
    }

    /// Performs an action that takes no input and drives no presenter.
    @inlinable
    public func perform<F: FeatureDefinition, A: Action>(
        _ binding: StaticActionBinding<F, A>,
        completion: (@Sendable (ActionOutcome) -> Void)? = nil
    ) where A.InputType == NoInput, A.PresenterType == NoPresenter {
        perform(binding, input: .noInput, presenter: (), completion: completion)
    }

    /// Performs an action that takes no input, and returns its outcome.
    @inlinable
    @discardableResult
    public func perform<F: FeatureDefinition, A: Action>(
        _ binding: StaticActionBinding<F, A>,
        presenter: A.PresenterType
    ) async -> ActionOutcome where A.InputType == NoInput {
        await perform(binding, input: .noInput, presenter: presenter)
    }

    /// Performs an action that drives no presenter, and returns its outcome.
    @inlinable
    @discardableResult
    public func perform<F: FeatureDefinition, A: Action>(
        _ binding: StaticActionBinding<F, A>,
        input: A.InputType
    ) async -> ActionOutcome where A.PresenterType == NoPresenter {
        await perform(binding, input: input, presenter: ())
    }

    /// Performs an action that takes no input and drives no presenter, and returns its outcome.
    @inlinable
    @discardableResult
    public func perform<F: FeatureDefinition, A: Action>(
        _ binding: StaticActionBinding<F, A>
    ) async -> ActionOutcome where A.InputType == NoInput, A.PresenterType == NoPresenter {
        await perform(binding, input: .noInput, presenter: ())
    }
}
