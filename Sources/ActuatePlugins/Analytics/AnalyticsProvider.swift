import ActuateCore

/// A destination for analytics events: an SDK adapter, a logger, a test recorder.
///
/// Providers are called on the thread that began or completed the action, so a provider that does I/O
/// hands the event to its own queue and returns at once. Combine several with
/// ``MultiplexAnalyticsProvider``; turn analytics off with ``NoOpAnalyticsProvider``.
///
/// ```swift
/// import Synchronization
///
/// final class FailureCounter: AnalyticsProvider {
///     private let failures = Mutex(0)
///
///     func track(_ event: AnalyticsEvent) {
///         guard event.phase == .ended, case .failure = event.outcome else { return }
///         failures.withLock { $0 += 1 }
///     }
///
///     var count: Int { failures.withLock { $0 } }
/// }
/// ```
///
/// ``ConsoleAnalyticsProvider`` writes each event as a line, to read while developing.
public protocol AnalyticsProvider: Sendable {
    /// Receives one event.
    ///
    /// - Parameter event: A ``AnalyticsEvent/Phase/began`` or ``AnalyticsEvent/Phase/ended`` event.
    func track(_ event: AnalyticsEvent)
}

/// A provider that sends every event to several providers, in order.
public struct MultiplexAnalyticsProvider: AnalyticsProvider {
    /// The providers, in the order they receive events.
    let providers: [any AnalyticsProvider]

    /// Creates a provider that fans events out to `providers`.
    ///
    /// - Parameter providers: The providers, in the order they receive events.
    public init(_ providers: [any AnalyticsProvider]) {
        self.providers = providers
    }

    public func track(_ event: AnalyticsEvent) {
        for provider in providers { provider.track(event) }
    }
}

/// A provider that discards every event.
public struct NoOpAnalyticsProvider: AnalyticsProvider {
    /// Creates the provider.
    public init() {}

    public func track(_ event: AnalyticsEvent) {}
}
