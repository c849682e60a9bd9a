import ActuateCore

extension ActuateSystem {
    /// Which dispatcher a system performs its actions through.
    public enum Dispatching: Sendable {
        /// The process-wide `ActionDispatcher.shared` behind `ActionSession.main`, with its system clock,
        /// standard-error diagnostics and default completion timeout, so that `binding.perform()` reaches the
        /// system's plugins. For apps.
        case shared
        /// A dispatcher of the system's own, for tests and for apps that run several systems.
        ///
        /// - Parameters:
        ///   - scheduler: The system's one clock: request dates and durations (which every plugin reads from
        ///     the request), log dates and the completion watchdog.
        ///   - diagnostics: Where programmer errors are reported.
        ///   - completionTimeout: How long an action may take to complete before it is reported (10 seconds by
        ///     default); nil never.
        ///   - loggerFactory: Creates each request's loggers, such as ``FocusLogging``; when it is
        ///     `DebugReportable` it joins the system's debug report.
        case isolated(
            scheduler: any ActuateScheduler = SystemScheduler.shared,
            diagnostics: any ActuateDiagnostics = StandardErrorDiagnostics(),
            completionTimeout: Duration? = .seconds(10),
            loggerFactory: (any ActionLoggerFactory)? = nil
        )
    }
}
