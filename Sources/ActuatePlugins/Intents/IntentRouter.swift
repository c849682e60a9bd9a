import ActuateCore
import Synchronization

/// Performs intents the system hands back: maps an intent's identifier to an ``IntentAction``'s binding, builds
/// the input from the intent's parameters and performs it, user-initiated, with `ActionSource.intent`.
///
/// ```swift
/// let intents = IntentRouter()
/// intents.register(OrdersFeature.reorder)
/// // When the system asks the app to handle an intent:
/// let result = await intents.perform(identifier: intentIdentifier, parameters: intentParameters, session: .main)
/// ```
public final class IntentRouter: Sendable {
    private typealias Route = @Sendable ([String: String], ActionSession) async -> IntentHandlingResult

    /// The most parameters an intent may carry; more is bad input.
    static let maximumParameterCount = 64
    /// The longest parameter value, in UTF-8 bytes; a longer one is bad input.
    static let maximumValueLength = 8_192

    private let routes = Mutex<[String: Route]>([:])

    /// Creates an empty router.
    public init() {}

    /// The intent identifiers registered so far.
    var identifiers: Set<String> { routes.withLock { Set($0.keys) } }

    /// Registers an action, replacing any earlier registration for its identifier.
    ///
    /// - Parameters:
    ///   - binding: The action to perform.
    ///   - presenter: Provides the presenter to perform with, or nil when the app cannot show the action now.
    /// - Returns: The identifier registered, as ``IntentDescriptor/identifier(for:)`` gives it.
    @discardableResult
    public func register<F, A: IntentAction>(
        _ binding: StaticActionBinding<F, A>,
        presenter: @escaping @Sendable () async -> A.PresenterType?
    ) -> String {
        let identifier = IntentDescriptor.identifier(for: binding)
        let route: Route = { parameters, session in
            let input: A.InputType
            do {
                input = try A.InputType(routeParameters: RouteParameters(path: parameters))
            } catch {
                return .badParameters(error)
            }
            guard let presenter = await presenter() else { return .presenterUnavailable(action: A.name) }
            let outcome = await session.perform(
                binding,
                input: input,
                presenter: presenter,
                userInitiated: true,
                source: .intent
            )
            return .performed(outcome)
        }
        routes.withLock { $0[identifier] = route }
        return identifier
    }

    /// Registers an action that drives no presenter, replacing any earlier registration for its identifier.
    ///
    /// - Parameter binding: The action to perform.
    /// - Returns: The identifier registered.
    @discardableResult
    public func register<F, A: IntentAction>(_ binding: StaticActionBinding<F, A>) -> String
    where A.PresenterType == NoPresenter {
        register(binding, presenter: { () })
    }

    /// Removes the registration for an identifier.
    ///
    /// - Parameter identifier: The intent identifier.
    func unregister(identifier: String) {
        _ = routes.withLock { $0.removeValue(forKey: identifier) }
    }

    /// Performs a donated intent.
    ///
    /// - Parameters:
    ///   - intent: The intent, as it was donated.
    ///   - session: The session to perform the action in.
    /// - Returns: What happened; see ``perform(identifier:parameters:session:)``.
    public func perform(_ intent: IntentDescriptor, session: ActionSession) async -> IntentHandlingResult {
        await perform(identifier: intent.identifier, parameters: intent.parameters, session: session)
    }

    /// Performs the action registered for an intent identifier, with the input its parameters give.
    ///
    /// - Parameters:
    ///   - identifier: The intent identifier.
    ///   - parameters: The intent's parameter values by name.
    ///   - session: The session to perform the action in.
    /// - Returns: ``IntentHandlingResult/performed(_:)`` with the action's outcome once it has completed,
    ///   ``IntentHandlingResult/unknownIntent`` when nothing is registered for the identifier,
    ///   ``IntentHandlingResult/badParameters(_:)`` when the parameters are too many, too long or do not decode,
    ///   or ``IntentHandlingResult/presenterUnavailable(action:)``.
    public func perform(
        identifier: String,
        parameters: [String: String],
        session: ActionSession
    ) async -> IntentHandlingResult {
        guard let route = routes.withLock({ $0[identifier] }) else { return .unknownIntent }
        if parameters.count > Self.maximumParameterCount {
            return .badParameters(IntentParametersError.tooMany(count: parameters.count))
        }
        if let long = parameters.first(where: { $0.value.utf8.count > Self.maximumValueLength }) {
            return .badParameters(IntentParametersError.tooLong(name: long.key))
        }
        return await route(parameters, session)
    }
}

/// What happened when an ``IntentRouter`` was asked to perform an intent.
public enum IntentHandlingResult: Sendable, Equatable, CustomStringConvertible {
    /// The registered action was performed, with this outcome.
    case performed(ActionOutcome)
    /// No action is registered for the intent's identifier.
    case unknownIntent
    /// The parameters could not be turned into the action's input.
    case badParameters(any Error)
    /// The action drives a presenter and the app has none for it at the moment.
    case presenterUnavailable(action: String)

    /// Whether the action was performed and succeeded.
    var isSuccess: Bool {
        if case .performed(let outcome) = self { return outcome.isSuccess }
        return false
    }

    /// Results compare equal when they are the same case with equal outcomes, names, or errors (by `==` when
    /// the error type is `Equatable`, otherwise by type and reflected description).
    public static func == (lhs: IntentHandlingResult, rhs: IntentHandlingResult) -> Bool {
        switch (lhs, rhs) {
        case (.performed(let left), .performed(let right)): left == right
        case (.unknownIntent, .unknownIntent): true
        case (.badParameters(let left), .badParameters(let right)): ErrorEquality.areEqual(left, right)
        case (.presenterUnavailable(let left), .presenterUnavailable(let right)): left == right
        default: false
        }
    }

    public var description: String {
        switch self {
        case .performed(let outcome):
            outcome.isSuccess ? "performed" : "performed, failed: \(outcome.errorDescription ?? "")"
        case .unknownIntent: "unknown intent"
        case .badParameters(let error): "bad parameters: \(ErrorDescription.redacted(error))"
        case .presenterUnavailable(let action): "no presenter for '\(action)'"
        }
    }
}

/// Why an intent's parameters were refused before decoding.
enum IntentParametersError: Error, Sendable, Hashable, CustomStringConvertible {
    /// More parameters than `IntentRouter.maximumParameterCount`.
    case tooMany(count: Int)
    /// A value longer than `IntentRouter.maximumValueLength`.
    case tooLong(name: String)

    var description: String {
        switch self {
        case .tooMany(let count):
            "The intent has \(count) parameters, more than the \(IntentRouter.maximumParameterCount) allowed."
        case .tooLong(let name):
            "The intent's parameter '\(name)' is longer than \(IntentRouter.maximumValueLength) bytes."
        }
    }
}
