/// An action of a ``ConditionalFeature`` that was available when requested: it performs like a
/// ``StaticActionBinding``.
///
/// Get one from ``ConditionalActionBinding/request(from:)`` just before performing, rather than keeping it:
/// it records that the feature was available at that moment.
public struct VerifiedActionBinding<F: ConditionalFeature, A: Action>: Sendable, CustomStringConvertible {
    /// The binding that performs the action, for APIs that take a ``StaticActionBinding``.
    public let binding: StaticActionBinding<F, A>

    init(_ binding: StaticActionBinding<F, A>) {
        self.binding = binding
    }

    public var description: String { binding.description }

    /// Performs the action in its default session, calling `completion` once when it has completed.
    public func perform(
        input: A.InputType,
        presenter: A.PresenterType,
        userInitiated: Bool = true,
        source: ActionSource = .application,
        completion: (@Sendable (ActionOutcome) -> Void)? = nil
    ) {
        binding.perform(
            input: input,
            presenter: presenter,
            userInitiated: userInitiated,
            source: source,
            completion: completion
        )
    }

    /// Performs the action in its default session and returns its outcome.
    @discardableResult
    public func perform(
        input: A.InputType,
        presenter: A.PresenterType,
        userInitiated: Bool = true,
        source: ActionSource = .application
    ) async -> ActionOutcome {
        await binding.perform(input: input, presenter: presenter, userInitiated: userInitiated, source: source)
    }
}

extension VerifiedActionBinding where A.InputType == NoInput, A.PresenterType == NoPresenter {
    /// Performs an action that takes no input and drives no presenter, and returns its outcome.
    @discardableResult
    public func perform() async -> ActionOutcome {
        await binding.perform()
    }
}

extension VerifiedActionBinding where A.PresenterType == NoPresenter {
    /// Performs an action that drives no presenter, and returns its outcome.
    @discardableResult
    public func perform(input: A.InputType) async -> ActionOutcome {
        await binding.perform(input: input)
    }
}

extension ActionSession {
    /// Performs a verified conditional action in this session, calling `completion` once when it has
    /// completed.
    ///
    /// - Parameters:
    ///   - binding: The binding returned by ``ConditionalActionBinding/request(from:)``.
    ///   - input: The input.
    ///   - presenter: The presenter the action drives.
    ///   - userInitiated: Whether the user asked for this directly. The default is `true`.
    ///   - source: Where the request came from. The default is ``ActionSource/application``.
    ///   - completion: Called once with the outcome.
    public func perform<F: ConditionalFeature, A: Action>(
        _ binding: VerifiedActionBinding<F, A>,
        input: A.InputType,
        presenter: A.PresenterType,
        userInitiated: Bool = true,
        source: ActionSource = .application,
        completion: (@Sendable (ActionOutcome) -> Void)? = nil
    ) {
        perform(
            binding.binding,
            input: input,
            presenter: presenter,
            userInitiated: userInitiated,
            source: source,
            completion: completion
        )
    }

    /// Performs a verified conditional action in this session and returns its outcome.
    ///
    /// - Parameters:
    ///   - binding: The binding returned by ``ConditionalActionBinding/request(from:)``.
    ///   - input: The input.
    ///   - presenter: The presenter the action drives.
    ///   - userInitiated: Whether the user asked for this directly. The default is `true`.
    ///   - source: Where the request came from. The default is ``ActionSource/application``.
    /// - Returns: The outcome.
    @discardableResult
    public func perform<F: ConditionalFeature, A: Action>(
        _ binding: VerifiedActionBinding<F, A>,
        input: A.InputType,
        presenter: A.PresenterType,
        userInitiated: Bool = true,
        source: ActionSource = .application
    ) async -> ActionOutcome {
        await perform(binding.binding, input: input, presenter: presenter, userInitiated: userInitiated, source: source)
    }
}
