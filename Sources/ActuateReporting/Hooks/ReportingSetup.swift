import Actuate

/// What `ActuateSystem.setup(group:configuration:reporting:)` installs so that every hook feeds the
/// reporting layer: a ``ReportingPlugin`` (actions that adopt ``ReportedAction``), an `AnalyticsPlugin` whose
/// events go to a `ReportingAnalyticsProvider` (and to `analyticsProviders`), an `ActionFailureReporter`
/// (with a timeline excerpt when `timelineExcerpt` is set), a `ReportingRouteObserver` on the system's URL
/// router (and on `activityRouter`), and, when `activityPublisher` is set, an `ActivitiesPlugin` that
/// publishes through a `ReportingActivityPublisher`.
///
/// ```swift
/// let system = try ActuateSystem.quickSetup(
///     group: AppFeatures.self,
///     configuration: ActuateConfiguration(routes: URLRouterConfiguration(appSchemes: ["shop"])),
///     reporting: ReportingSetup(reporter: reporter, timelineExcerpt: TimelineExcerptPolicy())
/// )
/// ```
///
/// Give other analytics providers (an SDK adapter, a console) here rather than installing a second
/// `AnalyticsPlugin`, so that each action is measured once.
public struct ReportingSetup: Sendable {
    /// Where every hook records.
    package var reporter: Reporter
    /// Providers that receive the analytics events too, after the reporter.
    package var analyticsProviders: [any AnalyticsProvider]
    /// Whether failed actions are recorded as `error` events. The default is `true`.
    package var recordsFailures: Bool
    /// How much of the timeline travels with each `error` event; nil (the default) sends none.
    package var timelineExcerpt: TimelineExcerptPolicy?
    /// Where published activities go after they are recorded; nil (the default) installs no activities plugin.
    package var activityPublisher: (any ActivityPublisher)?
    /// The prefix of the activity types the activities plugin publishes.
    package var activityTypePrefix: String
    /// An activity router whose continuations are recorded.
    package var activityRouter: ActivityRouter?
    /// The URL query item that forces tracking of the URL's opening; see `ReportingRouteObserver`.
    package var forceTrackingParameter: String?

    /// Creates a setup.
    ///
    /// - Parameters:
    ///   - reporter: Where every hook records.
    ///   - analyticsProviders: Providers that receive the analytics events too.
    ///   - recordsFailures: Whether failed actions are recorded as `error` events.
    ///   - timelineExcerpt: How much of the timeline travels with each `error` event; nil sends none.
    ///   - activityPublisher: Where published activities go after they are recorded; nil installs no activities
    ///     plugin.
    ///   - activityTypePrefix: The prefix of the activity types the activities plugin publishes.
    ///   - activityRouter: An activity router whose continuations are recorded.
    ///   - forceTrackingParameter: The URL query item that forces tracking of the URL's opening; nil never forces.
    public init(
        reporter: Reporter,
        analyticsProviders: [any AnalyticsProvider] = [],
        recordsFailures: Bool = true,
        timelineExcerpt: TimelineExcerptPolicy? = nil,
        activityPublisher: (any ActivityPublisher)? = nil,
        activityTypePrefix: String = ActivitiesPlugin.defaultActivityTypePrefix,
        activityRouter: ActivityRouter? = nil,
        forceTrackingParameter: String? = nil
    ) {
        self.reporter = reporter
        self.analyticsProviders = analyticsProviders
        self.recordsFailures = recordsFailures
        self.timelineExcerpt = timelineExcerpt
        self.activityPublisher = activityPublisher
        self.activityTypePrefix = activityTypePrefix
        self.activityRouter = activityRouter
        self.forceTrackingParameter = forceTrackingParameter
    }

    /// The plugins and observers one system gets, built before the system so that the plugins join its
    /// configuration, and connected to it afterwards.
    struct Installation {
        var plugins: [any ActionDispatchPlugin]
        var failures: ActionFailureReporter?
        var routes: ReportingRouteObserver

        /// Gives the failure reporter the system's timeline and puts the route observer on the routers.
        func connect(to system: ActuateSystem, activityRouter: ActivityRouter?) {
            failures?.attach(timeline: system.timeline)
            system.router.add(observer: routes)
            activityRouter?.add(observer: routes)
        }
    }

    /// Builds the plugins for a dispatcher that reports programmer errors to `diagnostics`. Every plugin reads
    /// dates and durations from the request, so they all run on the dispatcher's clock.
    func installation(diagnostics: any ActuateDiagnostics) -> Installation {
        let analytics = AnalyticsPlugin(
            provider: MultiplexAnalyticsProvider([ReportingAnalyticsProvider(reporter: reporter)] + analyticsProviders)
        )
        var plugins: [any ActionDispatchPlugin] = [ReportingPlugin(reporter: reporter), analytics]
        if let activityPublisher {
            plugins.append(
                ActivitiesPlugin(
                    publisher: ReportingActivityPublisher(reporter: reporter, forwardingTo: activityPublisher),
                    diagnostics: diagnostics,
                    activityTypePrefix: activityTypePrefix
                )
            )
        }
        var failures: ActionFailureReporter?
        if recordsFailures {
            let reporter = ActionFailureReporter(reporter: reporter, excerpt: timelineExcerpt)
            plugins.append(reporter)
            failures = reporter
        }
        return Installation(
            plugins: plugins,
            failures: failures,
            routes: ReportingRouteObserver(reporter: reporter, forceTrackingParameter: forceTrackingParameter)
        )
    }
}
