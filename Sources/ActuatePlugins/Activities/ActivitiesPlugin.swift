import ActuateCore
import Foundation
import Synchronization

/// A plugin that publishes an activity after every successful action with a non-empty
/// `Action.activityEligibility`.
///
/// For each such action it creates an `ActivityBuilder` with a default activity type (the prefix, the feature
/// path's components and the action's type name, joined with dots) and the declared eligibility, lets the
/// action fill it in with `Action.prepareActivity(_:)`, and hands the result to its ``ActivityPublisher``.
///
/// **Activities from URL routes.** An action with a URL route needs no `prepareActivity`, as in Flint: when the
/// plugin has a `URLRouter` (an ``ActuateSystem`` gives it the system's) and the input can go into links
/// (`RouteParametersEncodable`), the builder's `ActivityBuilder.url` starts as the link to the action with
/// that input: a universal link when a route accepts one (it becomes the `NSUserActivity`'s web page URL), an app
/// link otherwise. After `prepareActivity`, when `ActivityBuilder.url` is still a link the router opens, the
/// activity carries it in `userInfo` under `routeURLUserInfoKey` (a required key) with the route's
/// parameters under their own names, so that an ``ActivityRouter`` given the same URL router continues it by
/// performing the action through the router. Values the action set itself are kept; setting `url` to nil
/// publishes no link. Nothing is published
/// when the action failed, when it calls `ActivityBuilder.cancel()` or narrows the eligibility to nothing,
/// or when `prepareActivity` throws; a throw, an empty activity type and required user-info keys without
/// values are reported as `ActuateDiagnostic.Kind.pluginFailure`.
///
/// <!-- readme: apple-only (NSUserActivity) -->
/// ```swift
/// let activities = ActivitiesPlugin(publisher: UserActivityPublisher(), activityTypePrefix: "com.example.shop")
/// dispatcher.add(plugin: activities)
/// ```
public final class ActivitiesPlugin: ActionDispatchPlugin {
    /// The prefix of default activity types: the main bundle's identifier, or `actuate` when it has none
    /// (as on Linux).
    public static var defaultActivityTypePrefix: String {
        Bundle.main.bundleIdentifier ?? "actuate"
    }

    /// The user-info key under which an activity carries its route link, as an absolute URL string.
    public static let routeURLUserInfoKey = "actuate.route.url"

    /// Where activities go.
    let publisher: any ActivityPublisher
    /// The prefix of default activity types.
    let activityTypePrefix: String
    private let diagnostics: any ActuateDiagnostics
    /// The router for links, held weakly: the router's session's dispatcher holds this plugin, so a strong
    /// reference would be a cycle that keeps a whole system alive.
    private let linkRouter: Mutex<WeakRouterReference?>

    /// Creates the plugin.
    ///
    /// - Parameters:
    ///   - publisher: Where activities go.
    ///   - diagnostics: Where failures of `prepareActivity` are reported; use the dispatcher's.
    ///   - activityTypePrefix: The prefix of default activity types; the same as the ``ActivityRouter``'s.
    ///   - router: The URL router whose routes give routed actions their activity's link. When it is nil, an
    ///     ``ActuateSystem`` the plugin is installed in gives it the system's router. The plugin does not keep
    ///     the router alive (its system, or you, do).
    public init(
        publisher: any ActivityPublisher,
        diagnostics: any ActuateDiagnostics = StandardErrorDiagnostics(),
        activityTypePrefix: String = ActivitiesPlugin.defaultActivityTypePrefix,
        router: URLRouter? = nil
    ) {
        self.publisher = publisher
        self.diagnostics = diagnostics
        self.activityTypePrefix = activityTypePrefix
        self.linkRouter = Mutex(router.map(WeakRouterReference.init))
    }

    /// The URL router that gives routed actions their activity's link, if any.
    var router: URLRouter? { linkRouter.withLock { $0?.router } }

    /// Uses `router` for links unless the plugin already has one: what ``ActuateSystem`` does at setup.
    func adoptRouterIfNone(_ router: URLRouter) {
        linkRouter.withLock { reference in
            if reference?.router == nil { reference = WeakRouterReference(router) }
        }
    }

    /// The default activity type of an action: the prefix, the feature path's components and the action's
    /// type name, joined with dots, such as `com.example.shop.AppFeatures.CartFeature.AddItemAction`.
    ///
    /// Characters other than letters, digits, `-` and `_` in the components become `_`.
    /// - Parameters:
    ///   - prefix: The reverse-DNS prefix, such as the bundle identifier.
    ///   - feature: The action's feature.
    ///   - action: The action.
    /// - Returns: The activity type.
    static func activityType(prefix: String, feature: FeatureMetadata, action: ActionMetadata) -> String {
        activityType(prefix: prefix, featurePath: feature.path, actionTypeName: action.typeName)
    }

    static func activityType(prefix: String, featurePath: FeaturePath, actionTypeName: String) -> String {
        ([prefix] + (featurePath.components + [actionTypeName]).map(sanitized)).joined(separator: ".")
    }

    static func sanitized(_ component: String) -> String {
        String(component.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
    }

    /// Publishes once the recorders have recorded the outcome: `PluginStage.after`.
    public var stage: PluginStage { .after }

    /// The action's `Action.activityEligibility`, resolved once per action type; actions eligible for nothing
    /// lack the trait.
    static let eligibility = ActionTrait<Set<ActivityEligibility>>("activityEligibility") { action in
        action.activityEligibility.isEmpty ? nil : action.activityEligibility
    }

    public func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {}

    public func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        guard outcome.simplifiedOutcome.isSuccess, let eligibility = request.header.trait(Self.eligibility) else {
            return
        }
        let builder = ActivityBuilder<A>(
            input: request.context.input,
            activityType: Self.activityType(
                prefix: activityTypePrefix,
                feature: request.feature,
                action: request.action
            ),
            eligibility: eligibility
        )
        let router = self.router
        if let router, let input = request.context.input as? any RouteParametersEncodable {
            do {
                builder.url = try LinkCreator(router: router).activityLink(
                    to: StaticActionBinding<F, A>(),
                    values: input.routeParameterValues
                )
            } catch {
                report(request, "The action's route gives no link for this input (\(error)); the activity has none.")
            }
        }
        do {
            try A.prepareActivity(builder)
        } catch {
            report(request, "prepareActivity(_:) threw \(ErrorDescription.redacted(error)); no activity was published.")
            return
        }
        guard !builder.isCancelled, !builder.eligibility.isEmpty else { return }
        if let router { Self.addRouteLink(to: builder, router: router) }
        if let problem = Self.problem(in: builder) {
            report(request, problem + " No activity was published.")
            return
        }
        publisher.publish(PublishedActivity(builder, featurePath: request.feature.path))
    }

    /// Puts the builder's URL and its route parameters into the user info, when the URL is a link the router
    /// opens, without replacing values the action set.
    private static func addRouteLink<A>(to builder: ActivityBuilder<A>, router: URLRouter) {
        guard let url = builder.url, let match = router.resolve(url) else { return }
        var carried = [routeURLUserInfoKey: url.absoluteString]
        for item in match.parameters.query where carried[item.name] == nil {
            if let value = item.value { carried[item.name] = value }
        }
        carried.merge(match.parameters.path) { _, path in path }
        builder.userInfo.merge(carried) { own, _ in own }
        builder.requiredUserInfoKeys.insert(routeURLUserInfoKey)
    }

    private static func problem<A>(in builder: ActivityBuilder<A>) -> String? {
        if builder.activityType.trimmingCharacters(in: .whitespaces).isEmpty {
            return "prepareActivity(_:) left the activity type empty."
        }
        let missing = builder.requiredUserInfoKeys.subtracting(builder.userInfo.keys)
        if !missing.isEmpty {
            return "The required user-info keys \(missing.sorted()) have no value in userInfo, so the activity could "
                + "never be continued. Set them in prepareActivity(_:) or remove them from requiredUserInfoKeys."
        }
        return nil
    }

    private func report<F, A>(_ request: ActionRequest<F, A>, _ message: String) {
        diagnostics.report(
            ActuateDiagnostic(
                kind: .pluginFailure,
                actionName: request.action.name,
                featurePath: request.feature.path,
                sessionName: request.sessionName,
                message: "ActivitiesPlugin: " + message
            )
        )
    }
}

/// A reference to a URL router that does not keep it alive.
private final class WeakRouterReference: Sendable {
    weak let router: URLRouter?

    init(_ router: URLRouter) {
        self.router = router
    }
}
