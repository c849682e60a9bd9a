/// Everything ``ActuateSystem/setup(group:configuration:)`` needs besides the feature group.
///
/// Each default value is fresh, so two systems built from default configurations share nothing.
public struct ActuateConfiguration: Sendable {
    /// Which dispatcher a system performs its actions through.
    public enum Dispatching: Sendable {
        /// The process-wide ``ActionDispatcher/shared`` behind ``ActionSession/main``, with its system clock,
        /// standard-error diagnostics and default completion timeout, so that `binding.perform()` reaches the
        /// system's plugins. For apps.
        case shared
        /// A dispatcher of the system's own, for tests and for apps that run several systems.
        ///
        /// - Parameters:
        ///   - scheduler: The clock for request dates, the timeline and the completion watchdog.
        ///   - diagnostics: Where programmer errors are reported.
        ///   - completionTimeout: How long an action may take to complete before it is reported; nil never.
        ///   - loggerFactory: Creates each request's loggers, such as a focus-logging plugin.
        case isolated(
            scheduler: any ActuateScheduler = SystemScheduler.shared,
            diagnostics: any ActuateDiagnostics = StandardErrorDiagnostics(),
            completionTimeout: Duration? = ActionDispatcher.defaultCompletionTimeout,
            loggerFactory: (any ActionLoggerFactory)? = nil
        )
    }

    /// The dispatcher; isolated, with the system clock, by default.
    public var dispatching: Dispatching
    /// The plugins to install after the timeline, in order. Those that are ``DebugReportable`` join the
    /// debug report.
    public var plugins: [any ActionDispatchObserver]
    /// The most entries the timeline keeps.
    public var timelineMaxEntries: Int
    /// The name of the system's main session. With ``Dispatching/shared`` and the name `main`, the main
    /// session is ``ActionSession/main``.
    public var mainSessionName: String
    /// The app schemes and universal-link hosts the router answers.
    public var routes: URLRouterConfiguration
    /// Where user toggles are kept.
    public var userToggles: any UserToggles
    /// What answers permission checks.
    public var permissions: any PermissionChecker
    /// What validates purchases.
    public var purchases: any PurchaseValidator
    /// The platform constraints are checked against.
    public var platform: RuntimePlatform

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - dispatching: The dispatcher; an isolated one with the system clock by default.
    ///   - plugins: The plugins to install after the timeline.
    ///   - timelineMaxEntries: The timeline's capacity.
    ///   - mainSessionName: The main session's name.
    ///   - routes: The router's schemes and hosts.
    ///   - userToggles: Where user toggles are kept; in memory by default.
    ///   - permissions: What answers permission checks; by default every permission is not yet determined.
    ///   - purchases: What validates purchases; by default nothing is validated yet.
    ///   - platform: The platform for platform constraints; the current one by default.
    public init(
        dispatching: Dispatching = .isolated(),
        plugins: [any ActionDispatchObserver] = [],
        timelineMaxEntries: Int = Timeline.defaultMaxEntries,
        mainSessionName: String = "main",
        routes: URLRouterConfiguration = URLRouterConfiguration(),
        userToggles: any UserToggles = InMemoryUserToggles(),
        permissions: any PermissionChecker = InMemoryPermissionChecker(),
        purchases: any PurchaseValidator = InMemoryPurchaseValidator(),
        platform: RuntimePlatform = .current
    ) {
        self.dispatching = dispatching
        self.plugins = plugins
        self.timelineMaxEntries = timelineMaxEntries
        self.mainSessionName = mainSessionName
        self.routes = routes
        self.userToggles = userToggles
        self.permissions = permissions
        self.purchases = purchases
        self.platform = platform
    }
}
