import ActuateCore
import Foundation
import Synchronization

/// One app's Actuate: its features, dispatcher, plugins, timeline, debug report, URL router and feature
/// availability, built by one call.
///
/// Apps call ``quickSetup(group:configuration:)`` once at launch. It uses the shared dispatcher behind
/// `ActionSession.main`, so `binding.perform()` reaches the system's timeline and plugins, and
/// `ConditionalActionBinding.request()` consults its availability:
///
/// ```swift
/// let system = try ActuateSystem.quickSetup(
///     group: AppFeatures.self,
///     configuration: ActuateConfiguration(
///         plugins: [analytics],
///         routes: URLRouterConfiguration(appSchemes: ["shop"], universalLinkHosts: ["shop.example.com"])
///     )
/// )
/// ```
///
/// Tests call ``setup(group:dispatching:configuration:)``, which by default builds a system with a dispatcher
/// of its own, so that systems built by tests running in parallel share nothing; there is nothing to reset.
/// They ask a system for conditional actions with ``request(_:)``, never through the process-wide
/// `current`.
public final class ActuateSystem: Sendable {
    /// The metadata of every feature in the group, the group first.
    let features: [FeatureMetadata]
    /// The dispatcher that performs the system's actions.
    public let dispatcher: ActionDispatcher
    /// The system's main session.
    public let mainSession: ActionSession
    /// The timeline, installed first of the plugins.
    public let timeline: Timeline
    /// The debug report, holding everything the system installed that is `DebugReportable`: the timeline,
    /// the availability, the plugins, and the logger factory of an isolated dispatcher (such as
    /// ``FocusLogging``).
    public let debugReport: DebugReport
    /// The URL router, holding the routes of every `URLMapped` feature in the group.
    public let router: URLRouter
    /// Builds links that the router opens.
    public let links: LinkCreator
    /// The availability of the group's features.
    public let availability: FeatureAvailability
    /// The plugins installed after the timeline, in order.
    let plugins: [any ActionDispatchPlugin]

    private let sessions: Mutex<[String: ActionSession]>

    private static let quickSystem = Mutex<ActuateSystem?>(nil)

    private init(
        features: [FeatureMetadata],
        dispatcher: ActionDispatcher,
        mainSession: ActionSession,
        timeline: Timeline,
        debugReport: DebugReport,
        router: URLRouter,
        availability: FeatureAvailability,
        plugins: [any ActionDispatchPlugin]
    ) {
        self.features = features
        self.dispatcher = dispatcher
        self.mainSession = mainSession
        self.timeline = timeline
        self.debugReport = debugReport
        self.router = router
        self.links = LinkCreator(router: router)
        self.availability = availability
        self.plugins = plugins
        self.sessions = Mutex([mainSession.name: mainSession])
    }

    /// The system built by the latest ``quickSetup(group:configuration:)``, or nil before it.
    static var current: ActuateSystem? {
        quickSystem.withLock { $0 }
    }

    /// Builds a system: registers `group`, builds the dispatcher, installs the timeline and `plugins`,
    /// gathers the debug report, and builds the URL router and the feature availability.
    ///
    /// - Parameters:
    ///   - group: The app's feature group (or a single feature).
    ///   - dispatching: The dispatcher; by default an isolated one on the system clock.
    ///   - configuration: The plugins, routes and the sources of toggles, permissions and purchases.
    /// - Returns: The system.
    /// - Throws: ``ActuateSetupError`` when two features of the group would have the same path, or a feature
    ///   declares a malformed route; nothing is installed then.
    public static func setup(
        group: any FeatureDefinition.Type,
        dispatching: Dispatching = .isolated(),
        configuration: ActuateConfiguration = ActuateConfiguration()
    ) throws(ActuateSetupError) -> ActuateSystem {
        let features: [FeatureMetadata]
        do {
            features = try FeatureMetadata.prepare(group)
        } catch {
            throw .featurePathClash(error)
        }
        let dispatcher: ActionDispatcher
        let mainSession: ActionSession
        var installedReportables: [any DebugReportable] = []
        switch dispatching {
        case .shared:
            dispatcher = .shared
            mainSession =
                configuration.mainSessionName == ActionSession.main.name
                ? .main : ActionSession(named: configuration.mainSessionName, dispatcher: dispatcher)
        case .isolated(let scheduler, let diagnostics, let completionTimeout, let loggerFactory):
            dispatcher = ActionDispatcher(
                scheduler: scheduler,
                diagnostics: diagnostics,
                completionTimeout: completionTimeout,
                loggerFactory: loggerFactory
            )
            mainSession = ActionSession(named: configuration.mainSessionName, dispatcher: dispatcher)
            if let reportable = loggerFactory as? any DebugReportable { installedReportables.append(reportable) }
        }
        let availability = FeatureAvailability(
            userToggles: configuration.userToggles,
            permissions: configuration.permissions,
            purchases: configuration.purchases
        )
        do {
            try availability.register(group)
        } catch {
            throw .featurePathClash(error)
        }
        let router = URLRouter(
            configuration: configuration.routes,
            defaultSession: mainSession,
            availability: availability
        )
        do {
            try router.register(group)
        } catch {
            throw .malformedRoutes(error)
        }

        dispatcher.dependencies = configuration.dependencies
        let timeline = Timeline(maxEntries: configuration.timelineMaxEntries)
        dispatcher.add(plugin: timeline)
        for plugin in configuration.plugins {
            // Routed actions' activities carry their route link, so that continuing them goes through the router.
            (plugin as? ActivitiesPlugin)?.adoptRouterIfNone(router)
            dispatcher.add(plugin: plugin)
            if let reportable = plugin as? any DebugReportable { installedReportables.append(reportable) }
        }
        let debugReport = DebugReport(
            reportables: [timeline, availability] + installedReportables,
            dispatcher: dispatcher
        )
        return ActuateSystem(
            features: features,
            dispatcher: dispatcher,
            mainSession: mainSession,
            timeline: timeline,
            debugReport: debugReport,
            router: router,
            availability: availability,
            plugins: configuration.plugins
        )
    }

    /// Builds the app's system on the shared dispatcher behind `ActionSession.main` and makes it
    /// `current`. Call it once, at launch.
    ///
    /// It always uses the shared dispatcher (so it takes no dispatcher); for a dispatcher of the system's own,
    /// use ``setup(group:dispatching:configuration:)``. Calling it again replaces the previous quick system: its
    /// timeline and plugins leave the shared dispatcher.
    /// - Parameters:
    ///   - group: The app's feature group.
    ///   - configuration: Plugins, routes and the sources of toggles, permissions and purchases.
    /// - Returns: The system.
    /// - Throws: ``ActuateSetupError`` when two features of the group would have the same path, or a feature
    ///   declares a malformed route.
    @discardableResult
    public static func quickSetup(
        group: any FeatureDefinition.Type,
        configuration: ActuateConfiguration = ActuateConfiguration()
    ) throws(ActuateSetupError) -> ActuateSystem {
        let system = try setup(group: group, dispatching: .shared, configuration: configuration)
        let previous = quickSystem.withLock { current in
            defer { current = system }
            return current
        }
        previous?.uninstall(keeping: system)
        return system
    }

    /// The session called `name`, created on the system's dispatcher the first time it is asked for.
    func session(named name: String) -> ActionSession {
        sessions.withLock { sessions in
            if let existing = sessions[name] { return existing }
            let session = ActionSession(named: name, dispatcher: dispatcher)
            sessions[name] = session
            return session
        }
    }

    /// Opens a URL through the router, in the main session.
    ///
    /// - Parameter url: The URL.
    /// - Returns: What happened.
    public func open(url: URL) async -> URLRouteResult {
        await router.open(url: url, session: mainSession)
    }

    /// A performable binding if the conditional feature is available in this system now, or nil.
    public func request<F: ConditionalFeature, A: Action>(
        _ binding: ConditionalActionBinding<F, A>
    ) -> VerifiedActionBinding<F, A>? {
        binding.request(from: availability)
    }

    /// Removes this system's timeline and plugins from its dispatcher, except those `successor` also uses.
    private func uninstall(keeping successor: ActuateSystem) {
        let kept = Set(([successor.timeline] + successor.plugins).compactMap(Self.identity))
        for plugin in [timeline] + plugins {
            guard let identity = Self.identity(of: plugin), !kept.contains(identity) else { continue }
            dispatcher.remove(plugin: plugin)
        }
    }

    private static func identity(of plugin: any ActionDispatchPlugin) -> ObjectIdentifier? {
        guard type(of: plugin) is AnyObject.Type else { return nil }
        return ObjectIdentifier(plugin as AnyObject)
    }
}
