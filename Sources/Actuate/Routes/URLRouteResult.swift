/// What happened when a ``URLRouter`` was asked to open a URL.
public enum URLRouteResult: Sendable, Equatable, CustomStringConvertible {
    /// A route matched and its action ran to completion with this outcome.
    case performed(ActionOutcome)
    /// The scheme and host are configured, but no route matches the path.
    case noMatch
    /// The URL's scheme (or, for a web link, its host) is not one the router is configured for.
    case unsupportedScope
    /// A route matched, but its parameters could not be turned into the action's input.
    case badParameter(name: String, reason: String)
    /// The awaiting task was cancelled before the action started, or the action ended cancelled.
    case cancelled
    /// The route's feature is a ``ConditionalFeature`` that is not available now (or not yet known to be).
    case unavailable(feature: FeaturePath)
    /// The action drives a presenter and the router has no presenter for it at the moment.
    case presenterUnavailable(action: String)

    /// Whether a route matched and its action succeeded.
    package var isSuccess: Bool {
        if case .performed(let outcome) = self { return outcome.isSuccess }
        return false
    }

    /// Whether a route matched and its action ran, successfully or not.
    package var isPerformed: Bool {
        if case .performed = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .performed(let outcome): "performed: \(outcome)"
        case .noMatch: "no match"
        case .unsupportedScope: "unsupported scope"
        case .badParameter(let name, let reason): "bad parameter '\(name)': \(reason)"
        case .cancelled: "cancelled"
        case .unavailable(let feature): "feature \(feature) unavailable"
        case .presenterUnavailable(let action): "no presenter for '\(action)'"
        }
    }
}

/// The route a URL resolves to, without performing it.
public struct URLRouteMatch: Sendable, CustomStringConvertible {
    /// The matching pattern, as written.
    package let pattern: String
    /// The feature that declared the route.
    package let featureName: String
    /// The display name of the route's action.
    package let actionName: String
    /// The captured path parameters and the URL's query items.
    public let parameters: RouteParameters

    public var description: String { "\(pattern) → \(featureName) › \(actionName)" }
}
