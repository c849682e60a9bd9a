import Foundation

/// A feature whose actions can be reached through URLs: app links such as `shop://product/42` and universal
/// links such as `https://shop.example.com/product/42`.
///
/// ```swift
/// final class StoreFeature: Feature, URLMapped {
///     static let viewProduct = action(ViewProductAction.self)   // InputType == String
///     static let browse = action(BrowseAction.self)             // InputType == NoInput
///
///     static func prepare(actions: FeatureActionsBuilder) {
///         actions.declare(viewProduct)
///         actions.declare(browse)
///     }
///
///     static func urlMappings(routes: URLMappingsBuilder<StoreFeature>) {
///         routes.send("product/$(id)", to: viewProduct)
///         routes.send("browse/**", to: browse, in: .appScheme("shop"))
///     }
/// }
/// ```
///
/// Mappings take effect when the feature, or a group holding it, is registered with a ``URLRouter``.
public protocol URLMapped: FeatureDefinition {
    /// Maps URL patterns to the feature's actions. Called once per router.
    ///
    /// - Parameter routes: The builder to declare routes on.
    static func urlMappings(routes: URLMappingsBuilder<Self>)
}

/// Collects the routes a ``URLMapped`` feature declares.
public final class URLMappingsBuilder<F: FeatureDefinition> {
    private(set) var declarations: [RouteDeclaration] = []

    init() {}

    /// Routes URLs that match `pattern` to an action.
    ///
    /// The action's input is built from the route's parameters with
    /// ``RouteParametersDecodable/init(routeParameters:)``.
    /// - Parameters:
    ///   - pattern: The pattern, such as `product/$(id)`, `item-$(sku)`, `help/*` or `files/**`
    ///     (see ``URLRouter`` for the syntax and which pattern wins when several match).
    ///   - binding: The action to perform.
    ///   - scopes: Where the route applies. None, the default, means every configured app scheme and
    ///     universal-link host.
    public func send<A: Action>(
        _ pattern: String,
        to binding: StaticActionBinding<F, A>,
        in scopes: URLRouteScope...
    ) where A.InputType: RouteParametersDecodable {
        declarations.append(
            RouteDeclaration(
                pattern: pattern,
                scopes: scopes,
                target: RouteTarget(F.self, A.self, isConditional: false) { invocation in
                    await invocation.perform(binding)
                }
            )
        )
    }
}

extension URLMappingsBuilder where F: ConditionalFeature {
    /// Routes URLs that match `pattern` to an action of a conditional feature.
    ///
    /// While the feature is not available, opening such a URL gives ``URLRouteResult/unavailable(feature:)``.
    /// - Parameters:
    ///   - pattern: The pattern.
    ///   - binding: The conditional action to perform.
    ///   - scopes: Where the route applies; none means everywhere configured.
    public func send<A: Action>(
        _ pattern: String,
        to binding: ConditionalActionBinding<F, A>,
        in scopes: URLRouteScope...
    ) where A.InputType: RouteParametersDecodable {
        declarations.append(
            RouteDeclaration(
                pattern: pattern,
                scopes: scopes,
                target: RouteTarget(F.self, A.self, isConditional: true) { invocation in
                    guard let availability = invocation.router.availability,
                        let verified = binding.request(from: availability)
                    else { return .unavailable(feature: F.identifier) }
                    return await invocation.perform(verified.binding)
                }
            )
        )
    }
}

/// A route as a feature declared it, before its pattern is compiled.
struct RouteDeclaration: Sendable {
    let pattern: String
    let scopes: [URLRouteScope]
    let target: RouteTarget
}

/// The action a route performs, with its input decoding and presenter lookup erased.
struct RouteTarget: Sendable {
    let featureID: ObjectIdentifier
    let actionID: ObjectIdentifier
    let featureName: String
    let actionName: String
    let isConditional: Bool
    let perform: @Sendable (RouteInvocation) async -> URLRouteResult
    /// Decodes parameters into the action's input and writes that input back into link values, so that a
    /// link can be checked to carry the input it was built from; nil when the input cannot go into links.
    let linkValues: @Sendable (RouteParameters) throws -> RouteParameterValues?

    init<F: FeatureDefinition, A: Action>(
        _ feature: F.Type,
        _ action: A.Type,
        isConditional: Bool,
        perform: @escaping @Sendable (RouteInvocation) async -> URLRouteResult
    ) where A.InputType: RouteParametersDecodable {
        self.featureID = ObjectIdentifier(feature)
        self.actionID = ObjectIdentifier(action)
        self.featureName = F.name
        self.actionName = A.name
        self.isConditional = isConditional
        self.perform = perform
        self.linkValues = { parameters in
            (try A.InputType(routeParameters: parameters) as? any RouteParametersEncodable)?.routeParameterValues
        }
    }
}

/// Everything a route needs to perform its action for one URL.
struct RouteInvocation: Sendable {
    let parameters: RouteParameters
    let session: ActionSession
    let userInitiated: Bool
    let router: URLRouter
    /// ``ActionSource/openURL``, or ``ActionSource/continueActivity(type:)`` when an activity carried the URL.
    let source: ActionSource

    /// Decodes the input, finds the presenter and performs the action with the invocation's source.
    func perform<F: FeatureDefinition, A: Action>(
        _ binding: StaticActionBinding<F, A>
    ) async -> URLRouteResult where A.InputType: RouteParametersDecodable {
        let input: A.InputType
        do {
            input = try A.InputType(routeParameters: parameters)
        } catch let error as RouteParameterError {
            return .badParameter(name: error.parameterName, reason: error.reason)
        } catch {
            let name = parameters.pathParameterNames.count == 1 ? parameters.pathParameterNames[0] : ""
            return .badParameter(name: name, reason: ErrorDescription.redacted(error))
        }
        guard let presenter = router.presenter(for: binding) else {
            return .presenterUnavailable(action: A.name)
        }
        if Task.isCancelled { return .cancelled }
        let outcome = await session.performDetailed(
            binding,
            input: input,
            presenter: presenter,
            userInitiated: userInitiated,
            source: source
        )
        return outcome.isCancellation ? .cancelled : .performed(outcome.simplifiedOutcome)
    }
}

extension URLMapped {
    /// The feature itself: the witness setup reads instead of a runtime cast.
    public static var _urlMapped: (any URLMapped.Type)? { self }
}
