import Foundation

/// Builds links to routed actions: app links such as `shop://product/42` and universal links such as
/// `https://shop.example.com/product/42`.
///
/// Every link is checked against the router before it is returned: it must resolve back to the same action
/// and decode to the same input. A link that would not route back is an error, never a broken URL.
///
/// ```swift
/// let links = LinkCreator(router: system.router)
/// let url = try links.appLink(to: CatalogFeature.viewProduct, input: "42")   // shop://product/42
/// ```
public struct LinkCreator: Sendable {
    /// The router whose routes the links follow.
    let router: URLRouter

    /// Creates a link creator for `router`'s routes.
    ///
    /// - Parameter router: The router whose routes the links follow.
    public init(router: URLRouter) {
        self.router = router
    }

    /// Builds an app link to an action.
    ///
    /// - Parameters:
    ///   - binding: The routed action.
    ///   - input: The input the link should carry.
    ///   - scheme: The app scheme; by default the first configured scheme the route accepts.
    /// - Returns: The link.
    /// - Throws: An error saying why when no route fits or the link would not route back.
    public func appLink<F: FeatureDefinition, A: Action>(
        to binding: StaticActionBinding<F, A>,
        input: A.InputType,
        scheme: String? = nil
    ) throws -> URL where A.InputType: RouteParametersCodable {
        let candidates = scheme.map { [$0.lowercased()] } ?? router.configuration.appSchemes
        if let scheme, !router.configuration.appSchemes.contains(scheme.lowercased()) {
            throw LinkCreationError.unconfiguredScope(scheme)
        }
        return try link(to: binding, input: input, origins: candidates.map { .appScheme($0) })
    }

    /// Builds a universal link to an action.
    ///
    /// - Parameters:
    ///   - binding: The routed action.
    ///   - input: The input the link should carry.
    ///   - host: The host; by default the first configured host the route accepts.
    /// - Returns: The `https` link.
    /// - Throws: An error saying why when no route fits or the link would not route back.
    public func universalLink<F: FeatureDefinition, A: Action>(
        to binding: StaticActionBinding<F, A>,
        input: A.InputType,
        host: String? = nil
    ) throws -> URL where A.InputType: RouteParametersCodable {
        let candidates = host.map { [$0.lowercased()] } ?? router.configuration.universalLinkHosts
        if let host, !router.configuration.universalLinkHosts.contains(host.lowercased()) {
            throw LinkCreationError.unconfiguredScope(host)
        }
        return try link(to: binding, input: input, origins: candidates.map { .universal($0) })
    }

    /// Builds an app link to an action of a conditional feature.
    ///
    /// - Throws: An error saying why when no route fits or the link would not route back.
    public func appLink<F: ConditionalFeature, A: Action>(
        to binding: ConditionalActionBinding<F, A>,
        input: A.InputType,
        scheme: String? = nil
    ) throws -> URL where A.InputType: RouteParametersCodable {
        try appLink(to: StaticActionBinding<F, A>(), input: input, scheme: scheme)
    }

    /// Builds a universal link to an action of a conditional feature.
    ///
    /// - Throws: An error saying why when no route fits or the link would not route back.
    public func universalLink<F: ConditionalFeature, A: Action>(
        to binding: ConditionalActionBinding<F, A>,
        input: A.InputType,
        host: String? = nil
    ) throws -> URL where A.InputType: RouteParametersCodable {
        try universalLink(to: StaticActionBinding<F, A>(), input: input, host: host)
    }

    private func link<F: FeatureDefinition, A: Action>(
        to binding: StaticActionBinding<F, A>,
        input: A.InputType,
        origins: [RoutedURL.Origin]
    ) throws(LinkCreationError) -> URL where A.InputType: RouteParametersCodable {
        try link(
            feature: ObjectIdentifier(F.self),
            action: ObjectIdentifier(A.self),
            names: (action: A.name, feature: F.name),
            values: input.routeParameterValues,
            origins: origins
        )
    }

    /// The link that an activity of action `A` of feature `F` carries: a universal link when a route
    /// accepts one, an app link otherwise.
    ///
    /// - Parameters:
    ///   - binding: The action.
    ///   - values: The input's link values.
    /// - Returns: The link, or nil when the action has no route.
    /// - Throws: An error saying why when the action has routes but none gives a link that routes back.
    public func activityLink<F: FeatureDefinition, A: Action>(
        to binding: StaticActionBinding<F, A>,
        values: RouteParameterValues
    ) throws -> URL? {
        try activityLink(
            feature: ObjectIdentifier(F.self),
            action: ObjectIdentifier(A.self),
            names: (action: A.name, feature: F.name),
            values: values
        )
    }

    /// Builds the link an activity of the identified action carries: a universal link when one of the action's
    /// routes accepts one (it becomes the activity's web page URL), an app link otherwise.
    ///
    /// - Parameters:
    ///   - feature: The identifier of the feature's type.
    ///   - action: The identifier of the action's type.
    ///   - names: The action's and the feature's display names, for errors.
    ///   - values: The input's link values.
    /// - Returns: The link, or nil when the action has no route.
    /// - Throws: `LinkCreationError` when the action has routes but none gives a link that routes back.
    func activityLink(
        feature: ObjectIdentifier,
        action: ObjectIdentifier,
        names: (action: String, feature: String),
        values: RouteParameterValues
    ) throws(LinkCreationError) -> URL? {
        guard !router.routes(feature: feature, action: action).isEmpty else { return nil }
        let configuration = router.configuration
        let kinds: [[RoutedURL.Origin]] = [
            configuration.universalLinkHosts.map { .universal($0) }, configuration.appSchemes.map { .appScheme($0) },
        ]
        var firstError: LinkCreationError?
        for origins in kinds where !origins.isEmpty {
            do {
                return try link(feature: feature, action: action, names: names, values: values, origins: origins)
            } catch {
                if case .noScope = error { continue }
                firstError = firstError ?? error
            }
        }
        throw firstError ?? .noScope(action: names.action)
    }

    private func link(
        feature: ObjectIdentifier,
        action: ObjectIdentifier,
        names: (action: String, feature: String),
        values: RouteParameterValues,
        origins: [RoutedURL.Origin]
    ) throws(LinkCreationError) -> URL {
        let routes = router.routes(feature: feature, action: action)
        guard !routes.isEmpty else { throw .noRoute(action: names.action, feature: names.feature) }
        var firstError: LinkCreationError?
        for route in routes {
            for origin in origins where route.accepts(origin) {
                do {
                    let url = try Self.build(route.pattern, values: values, origin: origin)
                    try verify(url, leadsTo: route, values: values)
                    return url
                } catch {
                    firstError = firstError ?? error
                }
            }
        }
        throw firstError ?? .noScope(action: names.action)
    }

    private func verify(
        _ url: URL,
        leadsTo route: URLRouter.CompiledRoute,
        values: RouteParameterValues
    ) throws(LinkCreationError) {
        guard let routed = RoutedURL(url, configuration: router.configuration),
            let (winner, parameters) = router.match(routed)
        else { throw .wouldNotRouteBack(url: url, reason: "it matches no route") }
        guard winner.target.featureID == route.target.featureID, winner.target.actionID == route.target.actionID else {
            throw .wouldNotRouteBack(url: url, reason: "route '\(winner.pattern.text)' takes it instead")
        }
        let decoded: RouteParameterValues?
        do {
            decoded = try winner.target.linkValues(parameters)
        } catch {
            throw .wouldNotRouteBack(
                url: url,
                reason: "its parameters do not decode: \(ErrorDescription.redacted(error))"
            )
        }
        guard decoded == values else {
            throw .wouldNotRouteBack(url: url, reason: "it decodes to a different input")
        }
    }

    private static func build(
        _ pattern: RoutePattern,
        values: RouteParameterValues,
        origin: RoutedURL.Origin
    ) throws(LinkCreationError) -> URL {
        var named: [String: String]
        switch values {
        case .none:
            named = [:]
        case .single(let value):
            guard pattern.parameterNames.count == 1 else {
                throw .parameterMismatch(
                    pattern: pattern.text,
                    reason: "the input has one value, the pattern "
                        + "has \(pattern.parameterNames.count) parameters"
                )
            }
            named = [pattern.parameterNames[0]: value]
        case .named(let values):
            named = values
        }
        var segments: [String] = []
        for segment in pattern.segments {
            switch segment {
            case .literal(let literal):
                segments.append(encode(literal))
            case .parameter(let name, let prefix, let suffix):
                guard let value = named.removeValue(forKey: name) else { throw .missingParameter(name: name) }
                segments.append(encode(prefix) + encode(value) + encode(suffix))
            case .anySegment:
                throw .parameterMismatch(pattern: pattern.text, reason: "'*' cannot be filled in from an input")
            case .anySegments:
                continue
            }
        }
        var text: String
        switch origin {
        case .appScheme(let scheme): text = "\(scheme)://" + segments.joined(separator: "/")
        case .universal(let host): text = "https://\(host)/" + segments.joined(separator: "/")
        }
        if !named.isEmpty {
            text +=
                "?"
                + named.sorted { $0.key < $1.key }.map { "\(encode($0.key))=\(encode($0.value))" }
                .joined(separator: "&")
        }
        guard let url = URL(string: text) else { throw .wouldNotRouteBack(url: nil, reason: "'\(text)' is not a URL") }
        return url
    }

    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~"
    )

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}

/// Why a link could not be built.
package enum LinkCreationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The action has no route in the router.
    case noRoute(action: String, feature: String)
    /// None of the action's routes applies to the requested kind of link or configured scheme/host.
    case noScope(action: String)
    /// The requested scheme or host is not in the router's configuration.
    case unconfiguredScope(String)
    /// The input lacks a value the pattern needs.
    case missingParameter(name: String)
    /// The input's values do not fit the pattern.
    case parameterMismatch(pattern: String, reason: String)
    /// The link would open something else, or nothing, or a different input.
    case wouldNotRouteBack(url: URL?, reason: String)

    package var description: String {
        switch self {
        case .noRoute(let action, let feature): "'\(action)' of \(feature) has no URL route."
        case .noScope(let action): "No route of '\(action)' applies to this kind of link."
        case .unconfiguredScope(let scope): "'\(scope)' is not configured in the router."
        case .missingParameter(let name): "The input has no value for the parameter '\(name)'."
        case .parameterMismatch(let pattern, let reason): "The input does not fit '\(pattern)': \(reason)."
        case .wouldNotRouteBack(let url, let reason):
            "The link \(url?.absoluteString ?? "") would not route back: \(reason)."
        }
    }
}
