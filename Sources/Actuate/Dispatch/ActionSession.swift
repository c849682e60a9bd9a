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
}

extension ActionSession {
    /// Performs an action in this session, calling `completion` once when it has completed.
    ///
    /// `completion` runs on the thread that completed the action (the action's queue when it completed
    /// synchronously), after every plugin has heard the outcome.
    /// - Parameters:
    ///   - binding: The feature's binding of the action, or a verified conditional binding.
    ///   - input: The input.
    ///   - presenter: The presenter the action drives.
    ///   - userInitiated: Whether the user asked for this directly. The default is `true`.
    ///   - source: Where the request came from. The default is ``ActionSource/application``.
    ///   - completion: Called once with the outcome.
    @inlinable
    public func perform<Binding: ActionBinding>(
        _ binding: Binding,
        input: Binding.ActionType.InputType,
        presenter: Binding.ActionType.PresenterType,
        userInitiated: Bool = true,
        source: ActionSource = .application,
        completion: (@Sendable (ActionOutcome) -> Void)?
    ) {
        dispatch(binding.binding, input, presenter, userInitiated, source, completion: Self.simplifying(completion))
    }

    /// Performs an action in this session and returns its outcome.
    ///
    /// Cancelling the awaiting task cancels an ``AsyncAction``'s body; the outcome is then a failure with
    /// ``ActionCancellationError``.
    /// - Parameters:
    ///   - binding: The feature's binding of the action, or a verified conditional binding.
    ///   - input: The input.
    ///   - presenter: The presenter the action drives.
    ///   - userInitiated: Whether the user asked for this directly. The default is `true`.
    ///   - source: Where the request came from. The default is ``ActionSource/application``.
    /// - Returns: The outcome.
    @inlinable
    @discardableResult
    public func perform<Binding: ActionBinding>(
        _ binding: Binding,
        input: Binding.ActionType.InputType,
        presenter: Binding.ActionType.PresenterType,
        userInitiated: Bool = true,
        source: ActionSource = .application
    ) async -> ActionOutcome {
        await performDetailed(binding, input: input, presenter: presenter, userInitiated: userInitiated, source: source)
            .simplifiedOutcome
    }

    /// Performs an action in this session and returns the full outcome, including feature termination: the one
    /// `async` implementation every `await`ed `perform` forwards to.
    ///
    /// - Parameters:
    ///   - binding: The feature's binding of the action, or a verified conditional binding.
    ///   - input: The input.
    ///   - presenter: The presenter the action drives.
    ///   - userInitiated: Whether the user asked for this directly. The default is `true`.
    ///   - source: Where the request came from. The default is ``ActionSource/application``.
    /// - Returns: The outcome.
    @inlinable
    package func performDetailed<Binding: ActionBinding>(
        _ binding: Binding,
        input: Binding.ActionType.InputType,
        presenter: Binding.ActionType.PresenterType,
        userInitiated: Bool = true,
        source: ActionSource = .application
    ) async -> ActionPerformOutcome {
        let resolution = binding.binding.resolved()
        if resolution.withObject({ $0.isAsyncAction }) {
            return await performAwaitingBody(
                binding,
                input: input,
                presenter: presenter,
                userInitiated: userInitiated,
                source: source,
                queue: resolution.withObject { $0.marker.withObject { $0 } }
            )
        }
        let cancellation = ActionCancellation()
        return await withTaskCancellationHandler {
            // Checked, not unsafe: an unsafe continuation resumed from the action's queue before this task has
            // suspended is reported as a data race by the Thread Sanitizer (CI runs the suite under it).
            await withCheckedContinuation { continuation in
                dispatch(binding, input, presenter, userInitiated, source, cancellation) {
                    continuation.resume(returning: $0)
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Performs an ``AsyncAction`` whose body the awaiting task runs itself, on the action's queue.
    ///
    /// The task moves to the queue's executor, where the request is dispatched inline (the plugins hear it begin
    /// there, as they would after a hop), and then runs the body the runner hands it instead of waiting for a task
    /// started for it. The body still runs on the queue, behind its gate; the awaiting task's cancellation is its
    /// own. The task moves twice, onto the queue and back, as a bare continuation round trip through the queue
    /// does, and no task is created. Should the runner start the body in a task after all (an action that
    /// implements the callback `perform` itself), the outcome is awaited as usual.
    @inlinable
    func performAwaitingBody<Binding: ActionBinding>(
        _ binding: Binding,
        input: Binding.ActionType.InputType,
        presenter: Binding.ActionType.PresenterType,
        userInitiated: Bool,
        source: ActionSource,
        queue marker: DispatchQueueMarker
    ) async -> ActionPerformOutcome {
        let cancellation = ActionCancellation(awaitingBody: true)
        return await withTaskCancellationHandler {
            await withTaskExecutorPreference(marker.executor) {
                let outcome = AwaitedOutcome()
                dispatch(binding, input, presenter, userInitiated, source, cancellation) { outcome.deliver($0) }
                if let body = cancellation.takeHandedOverBody() { await body() }
                if let delivered = outcome.delivered { return delivered }
                return await outcome.value
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Hands an awaited request to the dispatcher, with its cancellation, delivering the full outcome.
    @inlinable
    func dispatch<Binding: ActionBinding>(
        _ binding: Binding,
        _ input: Binding.ActionType.InputType,
        _ presenter: Binding.ActionType.PresenterType,
        _ userInitiated: Bool,
        _ source: ActionSource,
        _ cancellation: ActionCancellation,
        delivering deliver: @escaping @Sendable (ActionPerformOutcome) -> Void
    ) {
        dispatch(
            binding.binding,
            input,
            presenter,
            userInitiated,
            source,
            cancellation: cancellation,
            completion: .detailed(deliver)
        )
    }

    /// Performs an action that takes no input.
    @inlinable
    public func perform<Binding: ActionBinding>(
        _ binding: Binding,
        presenter: Binding.ActionType.PresenterType,
        completion: (@Sendable (ActionOutcome) -> Void)?
    ) where Binding.ActionType.InputType == NoInput {
        perform(binding, input: .noInput, presenter: presenter, completion: completion)
    }

    /// Performs an action that drives no presenter.
    @inlinable
    public func perform<Binding: ActionBinding>(
        _ binding: Binding,
        input: Binding.ActionType.InputType,
        completion: (@Sendable (ActionOutcome) -> Void)?
    ) where Binding.ActionType.PresenterType == NoPresenter {
        perform(binding, input: input, presenter: (), completion: completion)
    }

    /// Performs an action that takes no input and drives no presenter.
    @inlinable
    public func perform<Binding: ActionBinding>(
        _ binding: Binding,
        completion: (@Sendable (ActionOutcome) -> Void)?
    ) where Binding.ActionType.InputType == NoInput, Binding.ActionType.PresenterType == NoPresenter {
        perform(binding, input: .noInput, presenter: (), completion: completion)
    }

    /// Performs an action that takes no input, and returns its outcome.
    @inlinable
    @discardableResult
    public func perform<Binding: ActionBinding>(
        _ binding: Binding,
        presenter: Binding.ActionType.PresenterType
    ) async -> ActionOutcome where Binding.ActionType.InputType == NoInput {
        await perform(binding, input: .noInput, presenter: presenter)
    }

    /// Performs an action that drives no presenter, and returns its outcome.
    @inlinable
    @discardableResult
    public func perform<Binding: ActionBinding>(
        _ binding: Binding,
        input: Binding.ActionType.InputType
    ) async -> ActionOutcome where Binding.ActionType.PresenterType == NoPresenter {
        await perform(binding, input: input, presenter: ())
    }

    /// Performs an action that takes no input and drives no presenter, and returns its outcome.
    @inlinable
    @discardableResult
    public func perform<Binding: ActionBinding>(
        _ binding: Binding
    ) async -> ActionOutcome
    where Binding.ActionType.InputType == NoInput, Binding.ActionType.PresenterType == NoPresenter {
        await perform(binding, input: .noInput, presenter: ())
    }
}

extension ActionSession {
    /// Hands one request to the dispatcher under this session's name: the one callback implementation, which
    /// every `perform` (and, through its continuation, the one `async` implementation) forwards to.
    ///
    /// - Returns: The request's ``ActionRequest/uniqueID``, or nil when the feature never declared the action.
    @inlinable
    @discardableResult
    func dispatch<F: FeatureDefinition, A: Action>(
        _ binding: StaticActionBinding<F, A>,
        _ input: A.InputType,
        _ presenter: A.PresenterType,
        _ userInitiated: Bool,
        _ source: consuming ActionSource,
        cancellation: ActionCancellation? = nil,
        dependencies: DependencyStore? = nil,
        completion: consuming CallerCompletion
    ) -> UInt64? {
        dispatcher.dispatch(
            binding,
            session: name,
            input: input,
            presenter: presenter,
            userInitiated: userInitiated,
            source: source,
            cancellation: cancellation,
            dependencies: dependencies,
            completion: completion
        )
    }

    /// Performs an action and calls `completion` with its full outcome, for the test kit: returns the request's
    /// ``ActionRequest/uniqueID`` (nil when the feature never declared the action), so that the harness matches
    /// completions and diagnostics to the request that caused them.
    ///
    /// - Parameters:
    ///   - cancellation: The perform's cancellation, when the test kit can cancel it; see ``PerformCancellation``.
    ///   - dependencies: The request's dependency values, instead of those of the dispatcher or the caller.
    package func performReturningID<Binding: ActionBinding>(
        _ binding: Binding,
        input: Binding.ActionType.InputType,
        presenter: Binding.ActionType.PresenterType,
        userInitiated: Bool,
        source: ActionSource,
        cancellation: PerformCancellation? = nil,
        dependencies: DependencyStore? = nil,
        completion: @escaping @Sendable (ActionPerformOutcome) -> Void
    ) -> UInt64? {
        dispatch(
            binding.binding,
            input,
            presenter,
            userInitiated,
            source,
            cancellation: cancellation?.state,
            dependencies: dependencies,
            completion: .detailed(completion)
        )
    }

    @inlinable
    static func simplifying(_ completion: (@Sendable (ActionOutcome) -> Void)?) -> CallerCompletion {
        guard let completion else { return .none }
        return .simplified(completion)
    }
}
