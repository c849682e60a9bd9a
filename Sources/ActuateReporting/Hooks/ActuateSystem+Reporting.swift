import Actuate

extension ActuateSystem {
    /// Builds a system, as `ActuateSystem.setup(group:configuration:)` does, with every hook feeding
    /// the reporting layer: the plugins and observers ``ReportingSetup`` lists are installed after
    /// `configuration.plugins`, on the dispatcher's clock.
    ///
    /// - Parameters:
    ///   - group: The app's feature group (or a single feature).
    ///   - configuration: Everything else; by default an isolated dispatcher on the system clock.
    ///   - reporting: The reporter and what to record.
    /// - Returns: The system.
    /// - Throws: `URLRouteMappingError` when a feature declares a malformed route; nothing is installed then.
    public static func setup(
        group: any FeatureDefinition.Type,
        configuration: ActuateConfiguration = ActuateConfiguration(),
        reporting: ReportingSetup
    ) throws(URLRouteMappingError) -> ActuateSystem {
        var configuration = configuration
        let installation = reporting.installation(for: configuration.dispatching)
        configuration.plugins += installation.plugins
        let system = try setup(group: group, configuration: configuration)
        installation.connect(to: system, activityRouter: reporting.activityRouter)
        return system
    }

    /// Builds the app's system on the shared dispatcher, as `ActuateSystem.quickSetup(_:configuration:)`
    /// does, with every hook feeding the reporting layer. Call it once, at launch.
    ///
    /// - Parameters:
    ///   - group: The app's feature group.
    ///   - configuration: Plugins, routes and the sources of toggles, permissions and purchases.
    ///   - reporting: The reporter and what to record.
    /// - Returns: The system.
    /// - Throws: `URLRouteMappingError` when a feature declares a malformed route.
    @discardableResult
    public static func quickSetup(
        _ group: any FeatureDefinition.Type,
        configuration: ActuateConfiguration = ActuateConfiguration(),
        reporting: ReportingSetup
    ) throws(URLRouteMappingError) -> ActuateSystem {
        var configuration = configuration
        let installation = reporting.installation(for: .shared)
        configuration.plugins += installation.plugins
        let system = try quickSetup(group, configuration: configuration)
        installation.connect(to: system, activityRouter: reporting.activityRouter)
        return system
    }
}

extension ReportingSetup {
    /// Builds the plugins on the clock and diagnostics of the dispatcher `dispatching` describes.
    func installation(for dispatching: ActuateConfiguration.Dispatching) -> Installation {
        switch dispatching {
        case .shared:
            installation(scheduler: SystemScheduler.shared, diagnostics: StandardErrorDiagnostics())
        case .isolated(let scheduler, let diagnostics, _, _):
            installation(scheduler: scheduler, diagnostics: diagnostics)
        }
    }
}
