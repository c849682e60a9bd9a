import ActuateCore

/// Everything ``ActuateSystem/setup(group:dispatching:configuration:)`` and
/// ``ActuateSystem/quickSetup(group:configuration:)`` need besides the feature group and the dispatcher.
///
/// Each default value is fresh, so two systems built from default configurations share nothing.
public struct ActuateConfiguration: Sendable {
    /// The plugins to install after the timeline, in order. Those that are `DebugReportable` join the
    /// debug report.
    public var plugins: [any ActionDispatchPlugin]
    /// The most entries the timeline keeps.
    var timelineMaxEntries: Int
    /// The name of the system's main session. On the shared dispatcher (``ActuateSystem/quickSetup(group:configuration:)``
    /// or ``ActuateSystem/Dispatching/shared``) with the name `main`, the main session is `ActionSession.main`.
    var mainSessionName: String
    /// The app schemes and universal-link hosts the router answers.
    var routes: URLRouterConfiguration
    /// Where user toggles are kept.
    var userToggles: any UserToggles
    /// What answers permission checks.
    var permissions: any PermissionChecker
    /// What validates purchases.
    var purchases: any PurchaseValidator
    /// The dependency values the system's actions read with `ActionContext/dependency(_:)`: set on the system's
    /// dispatcher when the system is built. Keys not set read their live values.
    ///
    /// ```swift
    /// var configuration = ActuateConfiguration()
    /// configuration.dependencies[NotesServerKey.self] = HTTPNotesServer()
    /// ```
    public var dependencies: DependencyValues

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - plugins: The plugins to install after the timeline.
    ///   - timelineMaxEntries: The timeline's capacity.
    ///   - mainSessionName: The main session's name.
    ///   - routes: The router's schemes and hosts.
    ///   - userToggles: Where user toggles are kept; in memory by default.
    ///   - permissions: What answers permission checks; by default every permission is not yet determined.
    ///   - purchases: What validates purchases; by default nothing is validated yet.
    ///   - dependencies: The values of the actions' dependency keys; by default every key reads its live value.
    public init(
        plugins: [any ActionDispatchPlugin] = [],
        timelineMaxEntries: Int = 100,
        mainSessionName: String = "main",
        routes: URLRouterConfiguration = URLRouterConfiguration(),
        userToggles: any UserToggles = InMemoryUserToggles(),
        permissions: any PermissionChecker = InMemoryPermissionChecker(),
        purchases: any PurchaseValidator = InMemoryPurchaseValidator(),
        dependencies: DependencyValues = DependencyValues()
    ) {
        self.plugins = plugins
        self.timelineMaxEntries = timelineMaxEntries
        self.mainSessionName = mainSessionName
        self.routes = routes
        self.userToggles = userToggles
        self.permissions = permissions
        self.purchases = purchases
        self.dependencies = dependencies
    }
}
