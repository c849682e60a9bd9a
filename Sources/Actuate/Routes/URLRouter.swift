import Foundation
import Synchronization

/// Opens URLs by performing the actions that features mapped to them.
///
/// A router is an instance: an app usually gets one from `ActuateSystem`, and tests build their own.
///
/// ```swift
/// let router = URLRouter(
///     configuration: URLRouterConfiguration(appSchemes: ["shop"], universalLinkHosts: ["shop.example.com"]),
///     defaultSession: session
/// )
/// try router.register(AppFeatures.self)
/// let result = await router.open(url: URL(string: "shop://product/42")!)
/// ```
///
/// Patterns are compiled once, when a feature is registered. A pattern is `/`-separated segments: literals,
/// `$(name)` parameters (a whole segment, or inside one, as in `item-$(sku)`), `*` for exactly one segment and
/// `**` for any number of segments, zero included. Parameter values are percent-decoded, and the URL's query
/// items are available to the input's decoder too. When several patterns match, the most specific wins:
/// segment by segment from the first, a literal beats a partial parameter, which beats a parameter, which beats
/// `*`, which beats the end of a pattern, which beats `**`; on a tie the route registered first wins.
///
/// Routed actions may complete asynchronously: ``open(url:session:userInitiated:)`` returns when the action
/// has completed.
public final class URLRouter: Sendable {
    /// The app schemes and universal-link hosts the router answers.
    package let configuration: URLRouterConfiguration
    /// The session actions run in when ``open(url:session:userInitiated:)`` is given none.
    let defaultSession: ActionSession
    /// The availability that routes to conditional features consult; without one they are unavailable.
    package let availability: FeatureAvailability?

    struct CompiledRoute: Sendable {
        let pattern: RoutePattern
        let scopes: [URLRouteScope]
        let target: RouteTarget

        func accepts(_ origin: RoutedURL.Origin) -> Bool {
            scopes.contains { $0.accepts(origin) }
        }
    }

    private struct BindingKey: Hashable, Sendable {
        let feature: ObjectIdentifier
        let action: ObjectIdentifier
    }

    private struct State: Sendable {
        var routes: [CompiledRoute] = []
        var registered: Set<ObjectIdentifier> = []
        var presenters: [BindingKey: any Sendable] = [:]
        var observers: [any URLRouteObserver] = []
    }

    private let state = Mutex(State())

    /// Creates a router with no routes.
    ///
    /// - Parameters:
    ///   - configuration: The app schemes and universal-link hosts to answer.
    ///   - defaultSession: The session routed actions run in by default.
    ///   - availability: The availability of conditional features, for routes to their actions.
    public init(
        configuration: URLRouterConfiguration,
        defaultSession: ActionSession = .main,
        availability: FeatureAvailability? = nil
    ) {
        self.configuration = configuration
        self.defaultSession = defaultSession
        self.availability = availability
    }

    /// Registers the routes of `feature` and, if it is a group, of every ``URLMapped`` feature inside it.
    ///
    /// Registering a feature again has no effect. Either every new route is registered or, when any of them is
    /// malformed, none is.
    /// - Parameter feature: A ``URLMapped`` feature, or a group holding some.
    /// - Throws: ``URLRouteMappingError`` listing every malformed pattern and unconfigured scope.
    public func register(_ feature: any FeatureDefinition.Type) throws(URLRouteMappingError) {
        var seen = state.withLock { $0.registered }
        var declared: [(ObjectIdentifier, [RouteDeclaration])] = []
        collect(feature, seen: &seen, into: &declared)
        var compiled: [CompiledRoute] = []
        var problems: [URLRouteMappingError.Problem] = []
        for declaration in declared.flatMap(\.1) {
            let scopes = declaration.scopes.isEmpty ? URLRouteScope.all : declaration.scopes.map(\.normalized)
            func problem(_ reason: String) -> URLRouteMappingError.Problem {
                .init(feature: declaration.target.featureName, pattern: declaration.pattern, reason: reason)
            }
            for scope in scopes where !configuration.isConfigured(scope) {
                problems.append(problem("\(scope) is not in the router's configuration"))
            }
            do {
                compiled.append(
                    CompiledRoute(
                        pattern: try RoutePattern(declaration.pattern),
                        scopes: scopes,
                        target: declaration.target
                    )
                )
            } catch {
                problems.append(problem(error.description))
            }
        }
        guard problems.isEmpty else { throw URLRouteMappingError(problems: problems) }
        state.withLock { state in
            for (id, _) in declared { state.registered.insert(id) }
            let fresh = compiled.filter { route in
                !state.routes.contains { $0.target.featureID == route.target.featureID }
            }
            state.routes += fresh
        }
    }

    /// Supplies the presenter for a routed action that drives one.
    ///
    /// Actions without a presenter (``NoPresenter``) need none. When the provider returns nil, opening the URL
    /// gives ``URLRouteResult/presenterUnavailable(action:)``.
    /// - Parameters:
    ///   - binding: The routed action.
    ///   - provider: Returns the presenter to use now, or nil when the app cannot show the action.
    public func setPresenter<F: FeatureDefinition, A: Action>(
        for binding: StaticActionBinding<F, A>,
        _ provider: @escaping @Sendable () -> A.PresenterType?
    ) {
        let key = BindingKey(feature: ObjectIdentifier(F.self), action: ObjectIdentifier(A.self))
        state.withLock { $0.presenters[key] = provider }
    }

    /// Supplies the presenter for a routed action of a conditional feature.
    ///
    /// - Parameters:
    ///   - binding: The routed action.
    ///   - provider: Returns the presenter to use now, or nil when the app cannot show the action.
    public func setPresenter<F: ConditionalFeature, A: Action>(
        for binding: ConditionalActionBinding<F, A>,
        _ provider: @escaping @Sendable () -> A.PresenterType?
    ) {
        setPresenter(for: StaticActionBinding<F, A>(), provider)
    }

    /// The patterns registered so far, in registration order, each with its feature and action.
    var routeDescriptions: [String] {
        state.withLock { $0.routes }.map { route in
            "\(route.pattern.text) → \(route.target.featureName) › \(route.target.actionName)"
        }
    }

    /// Finds the route `url` leads to, without performing anything.
    ///
    /// - Parameter url: The URL.
    /// - Returns: The winning route and its parameters, or nil when the scope is unsupported or nothing matches.
    public func resolve(_ url: URL) -> URLRouteMatch? {
        guard let routed = RoutedURL(url, configuration: configuration), let (route, parameters) = match(routed)
        else { return nil }
        return URLRouteMatch(
            pattern: route.pattern.text,
            featureName: route.target.featureName,
            actionName: route.target.actionName,
            parameters: parameters
        )
    }

    /// Opens a URL: finds its route, builds the input and performs the action with ``ActionSource/openURL``.
    ///
    /// Returns once the action has completed, however long it takes.
    /// - Parameters:
    ///   - url: The URL to open.
    ///   - session: The session to perform in; the router's `defaultSession` by default.
    ///   - userInitiated: Whether the user opened the link. The default is `true`.
    /// - Returns: What happened.
    public func open(url: URL, session: ActionSession? = nil, userInitiated: Bool = true) async -> URLRouteResult {
        let session = session ?? defaultSession
        let (result, matched) = await route(url, session: session, userInitiated: userInitiated, source: .openURL)
        let observers = state.withLock { $0.observers }
        if !observers.isEmpty {
            let opening = URLOpening(
                url: url,
                match: matched,
                sessionName: session.name,
                userInitiated: userInitiated,
                result: result
            )
            for observer in observers { observer.urlRouter(self, didOpen: opening) }
        }
        return result
    }

    /// Adds an observer that hears about every URL opened from now on, with its result.
    ///
    /// - Parameter observer: The observer.
    package func add(observer: any URLRouteObserver) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Removes an observer, identified by object identity.
    ///
    /// - Parameter observer: The observer.
    package func remove(observer: any URLRouteObserver) {
        state.withLock { $0.observers.removeAll { $0 === observer } }
    }

    /// Performs the action `url` leads to, user-initiated, with `source`, without telling the router's
    /// observers: how `ActivityRouter` continues an activity that carries a route link.
    ///
    /// - Parameters:
    ///   - url: The route link the activity carried.
    ///   - session: The session to perform in.
    ///   - source: Where the request came from, such as ``ActionSource/continueActivity(type:)``.
    /// - Returns: What happened.
    public func perform(url: URL, session: ActionSession, source: ActionSource) async -> URLRouteResult {
        await route(url, session: session, userInitiated: true, source: source).0
    }

    /// Finds the route and performs it: what ``open(url:session:userInitiated:)`` does before telling observers.
    private func route(
        _ url: URL,
        session: ActionSession,
        userInitiated: Bool,
        source: ActionSource
    ) async -> (URLRouteResult, URLRouteMatch?) {
        if Task.isCancelled { return (.cancelled, nil) }
        guard let routed = RoutedURL(url, configuration: configuration) else { return (.unsupportedScope, nil) }
        guard let (route, parameters) = match(routed) else { return (.noMatch, nil) }
        let matched = URLRouteMatch(
            pattern: route.pattern.text,
            featureName: route.target.featureName,
            actionName: route.target.actionName,
            parameters: parameters
        )
        let invocation = RouteInvocation(
            parameters: parameters,
            session: session,
            userInitiated: userInitiated,
            router: self,
            source: source
        )
        return (await route.target.perform(invocation), matched)
    }

    /// The most specific route matching `url`, with its parameters.
    func match(_ url: RoutedURL) -> (CompiledRoute, RouteParameters)? {
        var best: (route: CompiledRoute, path: [String: String])?
        for route in state.withLock({ $0.routes }) where route.accepts(url.origin) {
            guard let captured = route.pattern.match(url.segments) else { continue }
            if let current = best, !route.pattern.isMoreSpecific(than: current.route.pattern) { continue }
            best = (route, captured)
        }
        guard let best else { return nil }
        return (
            best.route, RouteParameters(path: best.path, names: best.route.pattern.parameterNames, query: url.query)
        )
    }

    /// The routes of one action, in registration order.
    func routes<F: FeatureDefinition, A: Action>(for binding: StaticActionBinding<F, A>) -> [CompiledRoute] {
        routes(feature: ObjectIdentifier(F.self), action: ObjectIdentifier(A.self))
    }

    /// The routes of the action identified by its feature's and its own type, in registration order.
    func routes(feature: ObjectIdentifier, action: ObjectIdentifier) -> [CompiledRoute] {
        state.withLock { $0.routes }.filter { $0.target.featureID == feature && $0.target.actionID == action }
    }

    /// The presenter to perform a routed action with, or nil when there is none.
    func presenter<F: FeatureDefinition, A: Action>(for binding: StaticActionBinding<F, A>) -> A.PresenterType? {
        let key = BindingKey(feature: ObjectIdentifier(F.self), action: ObjectIdentifier(A.self))
        if let provider = state.withLock({ $0.presenters[key] }) {
            return (provider as? @Sendable () -> A.PresenterType?)?()
        }
        return () as? A.PresenterType
    }

    private func collect(
        _ feature: any FeatureDefinition.Type,
        seen: inout Set<ObjectIdentifier>,
        into declared: inout [(ObjectIdentifier, [RouteDeclaration])]
    ) {
        let id = ObjectIdentifier(feature)
        if !seen.contains(id), let mapped = FeatureKinds.urlMapped(of: feature) {
            seen.insert(id)
            declared.append((id, Self.declarations(of: mapped)))
        }
        if let group = FeatureKinds.group(of: feature) {
            for subfeature in group.subfeatures { collect(subfeature, seen: &seen, into: &declared) }
        }
    }

    private static func declarations<F: URLMapped>(of feature: F.Type) -> [RouteDeclaration] {
        let builder = URLMappingsBuilder<F>()
        F.urlMappings(routes: builder)
        return builder.declarations
    }
}

/// The routes a feature declared that could not be registered: malformed patterns and unconfigured scopes.
public struct URLRouteMappingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One route that could not be registered.
    package struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The display name of the feature that declared it.
        package let feature: String
        /// The pattern as written.
        package let pattern: String
        /// What is wrong.
        package let reason: String

        package var description: String { "\(feature): route '\(pattern)': \(reason)" }
    }

    /// Every problem found.
    package let problems: [Problem]

    public var description: String {
        "URL routes could not be registered:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
    }
}
