/// How a ``Reporter`` behaves.
public struct ReporterConfiguration: Sendable {
    /// The rules that end sessions.
    package var sessionPolicy: SessionPolicy
    /// The tracking consent at start, ``TrackingConsent/granted`` by default.
    package var initialConsent: TrackingConsent
    /// Called with every problem the reporter meets (a refused append, a failed purge, identity storage),
    /// outside the reporter's lock, on the thread that met it.
    package var onError: (@Sendable (ReportingError) -> Void)?

    /// Creates a configuration.
    /// - Parameters:
    ///   - sessionPolicy: The rules that end sessions.
    ///   - initialConsent: The tracking consent at start.
    ///   - onError: Called with every problem the reporter meets.
    public init(
        sessionPolicy: SessionPolicy = SessionPolicy(),
        initialConsent: TrackingConsent = .granted,
        onError: (@Sendable (ReportingError) -> Void)? = nil
    ) {
        self.sessionPolicy = sessionPolicy
        self.initialConsent = initialConsent
        self.onError = onError
    }
}

/// What happened to one `record` call.
public enum RecordOutcome: Sendable, Hashable {
    /// The event was appended to the store.
    case stored(ReportEvent)
    /// Tracking consent is denied, so the event was counted and not stored.
    case suppressed
    /// The event was invalid or the store refused it.
    case failed(ReportingError)

    /// The stored event, if it was stored.
    package var event: ReportEvent? {
        if case .stored(let event) = self { return event }
        return nil
    }
}
