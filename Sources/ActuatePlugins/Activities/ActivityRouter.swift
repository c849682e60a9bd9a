import ActuateCore
import Foundation
import Synchronization

/// Continues activities: maps an activity type to an action binding and performs it with
/// `ActionSource.continueActivity(type:)` as its source.
///
/// Register each action whose activities the app can continue, with a function that decodes its input from
/// the activity's user info. By default an action is registered under the same activity type that
/// ``ActivitiesPlugin`` publishes it with, so the prefixes of the two must agree.
///
/// Actions with a URL route need no registration: given the app's `URLRouter`, the router continues an
/// activity whose type has no registration and whose user info carries a route link (under
/// ``ActivitiesPlugin/routeURLUserInfoKey``, as ``ActivitiesPlugin`` publishes it) by performing the link's action
/// through the URL router, user-initiated, with `ActionSource.continueActivity(type:)` as its source. A
/// registration, with its hand-written decoder, wins over the link.
///
/// ```swift
/// let router = ActivityRouter(activityTypePrefix: "com.example.shop")
/// router.register(CatalogFeature.viewProduct) { userInfo in
///     guard let sku = userInfo["sku"] else { throw ActivityContinuationError.missingUserInfoKey("sku") }
///     return sku
/// }
/// // When the system asks the app to continue an activity:
/// let result = await router.continue(activityType: activityType, userInfo: userInfo, session: .main)
/// ```
public final class ActivityRouter: Sendable {
    private typealias Route = @Sendable ([String: String], ActionSession, String) async -> ActivityContinuationResult

    /// The prefix of default activity types.
    let activityTypePrefix: String
    /// The URL router that continues activities carrying a route link, if any.
    let urlRouter: URLRouter?
    /// The longest route link, in UTF-8 bytes, that the router follows; a longer one is bad input.
    static let maximumRouteURLLength = 8_192
    private struct State: Sendable {
        var routes: [String: Route] = [:]
        var observers: [any ActivityContinuationObserver] = []
    }

    private let state = Mutex(State())

    /// Creates an empty router.
    ///
    /// - Parameters:
    ///   - activityTypePrefix: The prefix of default activity types; the same as the ``ActivitiesPlugin``'s.
    ///   - urlRouter: The URL router that continues activities carrying a route link, such as the system's
    ///     ``ActuateSystem/router``; without one, only registered activity types are continued.
    public init(activityTypePrefix: String = ActivitiesPlugin.defaultActivityTypePrefix, urlRouter: URLRouter? = nil) {
        self.activityTypePrefix = activityTypePrefix
        self.urlRouter = urlRouter
    }

    /// The activity types registered so far.
    var activityTypes: Set<String> { state.withLock { Set($0.routes.keys) } }

    /// The activity type ``ActivitiesPlugin`` publishes for a binding's action, with this router's prefix.
    ///
    /// - Parameter binding: The binding.
    /// - Returns: The default activity type.
    func defaultActivityType<F, A>(for binding: StaticActionBinding<F, A>) -> String {
        ActivitiesPlugin.activityType(
            prefix: activityTypePrefix,
            featurePath: F.identifier,
            actionTypeName: String(describing: A.self)
        )
    }

    /// Registers an action, replacing any earlier registration for the same activity type.
    ///
    /// - Parameters:
    ///   - binding: The action to perform.
    ///   - activityType: The activity type; by default the one ``ActivitiesPlugin`` publishes it with.
    ///   - decodeInput: Builds the action's input from the activity's user info; a throw ends the continuation
    ///     with ``ActivityContinuationResult/badInput(_:)``.
    ///   - presenter: Provides the presenter to perform with, once the input has been decoded.
    /// - Returns: The activity type registered.
    @discardableResult
    public func register<F, A>(
        _ binding: StaticActionBinding<F, A>,
        activityType: String? = nil,
        decodeInput: @escaping @Sendable ([String: String]) throws -> A.InputType,
        presenter: @escaping @Sendable () async -> A.PresenterType
    ) -> String {
        let type = activityType ?? defaultActivityType(for: binding)
        let route: Route = { userInfo, session, type in
            let input: A.InputType
            do {
                input = try decodeInput(userInfo)
            } catch {
                return .badInput(error)
            }
            let outcome = await session.perform(
                binding,
                input: input,
                presenter: await presenter(),
                userInitiated: true,
                source: .continueActivity(type: type)
            )
            return .performed(outcome)
        }
        state.withLock { $0.routes[type] = route }
        return type
    }

    /// Registers an action that drives no presenter, replacing any earlier registration for the same type.
    ///
    /// - Parameters:
    ///   - binding: The action to perform.
    ///   - activityType: The activity type; by default the one ``ActivitiesPlugin`` publishes it with.
    ///   - decodeInput: Builds the action's input from the activity's user info.
    /// - Returns: The activity type registered.
    @discardableResult
    public func register<F, A>(
        _ binding: StaticActionBinding<F, A>,
        activityType: String? = nil,
        decodeInput: @escaping @Sendable ([String: String]) throws -> A.InputType
    ) -> String where A.PresenterType == NoPresenter {
        register(binding, activityType: activityType, decodeInput: decodeInput, presenter: {})
    }

    /// Removes the registration for an activity type.
    ///
    /// - Parameter activityType: The activity type.
    func unregister(activityType: String) {
        _ = state.withLock { $0.routes.removeValue(forKey: activityType) }
    }

    /// Continues an activity by performing the action registered for its type or, when there is none, the
    /// action its route link leads to.
    ///
    /// - Parameters:
    ///   - activityType: The continued activity's type.
    ///   - userInfo: The continued activity's user info.
    ///   - session: The session to perform the action in.
    /// - Returns: ``ActivityContinuationResult/performed(_:)`` with the action's outcome;
    ///   ``ActivityContinuationResult/noMatch`` when no action is registered for the type and it carries no route
    ///   link (or the router has no `urlRouter`, or the link matches no route); or
    ///   ``ActivityContinuationResult/badInput(_:)`` when the input could not be decoded, the route link is not a
    ///   URL, or the URL router could not perform it (``ActivityContinuationError/routeNotPerformed(url:reason:)``
    ///   says why).
    public func `continue`(
        activityType: String,
        userInfo: [String: String],
        session: ActionSession
    ) async -> ActivityContinuationResult {
        let (route, observers) = state.withLock { ($0.routes[activityType], $0.observers) }
        let result: ActivityContinuationResult
        if let route {
            result = await route(userInfo, session, activityType)
        } else if let urlRouter, let link = userInfo[ActivitiesPlugin.routeURLUserInfoKey] {
            result = await Self.continueThroughRoute(link, urlRouter: urlRouter, session: session, type: activityType)
        } else {
            result = .noMatch
        }
        let continuation = ActivityContinuation(activityType: activityType, sessionName: session.name, result: result)
        for observer in observers { observer.activityRouter(self, didContinue: continuation) }
        return result
    }

    private static func continueThroughRoute(
        _ link: String,
        urlRouter: URLRouter,
        session: ActionSession,
        type: String
    ) async -> ActivityContinuationResult {
        let key = ActivitiesPlugin.routeURLUserInfoKey
        guard link.utf8.count <= maximumRouteURLLength, let url = URL(string: link), url.scheme != nil else {
            let shown = link.utf8.count <= 200 ? link : String(link.prefix(200)) + "…"
            return .badInput(ActivityContinuationError.invalidUserInfoValue(key: key, value: shown))
        }
        switch await urlRouter.perform(url: url, session: session, source: .continueActivity(type: type)) {
        case .performed(let outcome): return .performed(outcome)
        case .noMatch: return .noMatch
        case let other:
            return .badInput(ActivityContinuationError.routeNotPerformed(url: link, reason: other.description))
        }
    }

    /// Adds an observer that hears about every continuation from now on, with its result.
    ///
    /// - Parameter observer: The observer.
    public func add(observer: any ActivityContinuationObserver) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Removes an observer, identified by object identity.
    ///
    /// - Parameter observer: The observer.
    public func remove(observer: any ActivityContinuationObserver) {
        state.withLock { $0.observers.removeAll { $0 === observer } }
    }
}

/// What happened when an ``ActivityRouter`` was asked to continue an activity.
public enum ActivityContinuationResult: Sendable, Equatable, CustomStringConvertible {
    /// The registered action was performed, with this outcome.
    case performed(ActionOutcome)
    /// No action is registered for the activity type.
    case noMatch
    /// The user info could not be decoded into the action's input.
    case badInput(any Error)

    /// Whether the action was performed and succeeded.
    var isSuccess: Bool {
        if case .performed(let outcome) = self { return outcome.isSuccess }
        return false
    }

    /// Results compare equal when they are the same case with equal outcomes, or equal errors (by `==` when
    /// the error type is `Equatable`, otherwise by type and reflected description).
    public static func == (lhs: ActivityContinuationResult, rhs: ActivityContinuationResult) -> Bool {
        switch (lhs, rhs) {
        case (.performed(let left), .performed(let right)): left == right
        case (.noMatch, .noMatch): true
        case (.badInput(let left), .badInput(let right)): ErrorEquality.areEqual(left, right)
        default: false
        }
    }

    public var description: String {
        switch self {
        case .performed(let outcome):
            outcome.isSuccess ? "performed" : "performed, failed: \(outcome.errorDescription ?? "")"
        case .noMatch: "no match"
        case .badInput(let error): "bad input: \(ErrorDescription.redacted(error))"
        }
    }
}

/// Errors for input decoders to throw when an activity's user info is unusable.
public enum ActivityContinuationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A required key is missing.
    case missingUserInfoKey(String)
    /// A key's value cannot be decoded.
    case invalidUserInfoValue(key: String, value: String)
    /// The URL router could not perform the activity's route link; `reason` is its `URLRouteResult`, such as
    /// `bad parameter 'id': missing` or `no presenter for 'Show Product'`.
    case routeNotPerformed(url: String, reason: String)

    public var description: String {
        switch self {
        case .missingUserInfoKey(let key): "The activity's user info has no value for '\(key)'."
        case .invalidUserInfoValue(let key, let value):
            "The activity's user info value '\(value)' for '\(key)' is invalid."
        case .routeNotPerformed(let url, let reason): "The activity's route link \(url) was not performed: \(reason)."
        }
    }
}
