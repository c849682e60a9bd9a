import Actuate

extension ActuateSystem {
    /// Builds a system, as `ActuateSystem.setup(group:dispatching:configuration:)` does, with every hook
    /// feeding the reporting layer: the plugins and observers ``ReportingSetup`` lists are installed after
    /// `configuration.plugins`, and read the dispatcher's clock from each request.
    ///
    /// - Parameters:
    ///   - group: The app's feature group (or a single feature).
    ///   - dispatching: The dispatcher; by default an isolated one on the system clock.
    ///   - configuration: Everything else.
    ///   - reporting: The reporter and what to record.
    /// - Returns: The system.
    /// - Throws: `ActuateSetupError` when two features would have the same path or a feature declares a
    ///   malformed route; nothing is installed then.
    public static func setup(
        group: any FeatureDefinition.Type,
        dispatching: Dispatching = .isolated(),
        configuration: ActuateConfiguration = ActuateConfiguration(),
        reporting: ReportingSetup
    ) throws(ActuateSetupError) -> ActuateSystem {
        var configuration = configuration
        let installation = reporting.installation(diagnostics: dispatching.diagnostics)
        configuration.plugins += installation.plugins
        let system = try setup(group: group, dispatching: dispatching, configuration: configuration)
        installation.connect(to: system, activityRouter: reporting.activityRouter)
        return system
    }

    /// Builds the app's system on the shared dispatcher, as `ActuateSystem.quickSetup(group:configuration:)`
    /// does, with every hook feeding the reporting layer. Call it once, at launch.
    ///
    /// - Parameters:
    ///   - group: The app's feature group.
    ///   - configuration: Plugins, routes and the sources of toggles, permissions and purchases.
    ///   - reporting: The reporter and what to record.
    /// - Returns: The system.
    /// - Throws: `ActuateSetupError` when two features would have the same path or a feature declares a
    ///   malformed route.
    @discardableResult
    public static func quickSetup(
        group: any FeatureDefinition.Type,
        configuration: ActuateConfiguration = ActuateConfiguration(),
        reporting: ReportingSetup
    ) throws(ActuateSetupError) -> ActuateSystem {
        var configuration = configuration
        let installation = reporting.installation(diagnostics: Dispatching.shared.diagnostics)
        configuration.plugins += installation.plugins
        let system = try quickSetup(group: group, configuration: configuration)
        installation.connect(to: system, activityRouter: reporting.activityRouter)
        return system
    }
}

extension ActuateSystem.Dispatching {
    /// Where the dispatcher this describes reports programmer errors.
    var diagnostics: any ActuateDiagnostics {
        switch self {
        case .shared: StandardErrorDiagnostics()
        case .isolated(_, let diagnostics, _, _): diagnostics
        }
    }
}
