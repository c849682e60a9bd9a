import Foundation
import Synchronization

/// A plugin that sends a begin and an end event to an ``AnalyticsProvider`` for every action that has an
/// ``Action/analyticsID``.
///
/// Actions without an identifier send nothing. Each event carries the action's
/// ``Action/analyticsAttributes(forRequest:)`` (asked once per request, when it begins), the input's
/// ``Loggable/loggingDescription`` (so ``Redacted`` values stay redacted), and, at the end, the outcome and
/// the duration measured on the injected scheduler.
///
/// ```swift
/// let analytics = AnalyticsPlugin(provider: MultiplexAnalyticsProvider([mySDKAdapter, ConsoleAnalytics()]))
/// dispatcher.add(observer: analytics)
/// ```
///
/// Install one plugin per dispatcher: it pairs begin and end events by request identifier, which is unique
/// per dispatcher.
public final class AnalyticsPlugin: ActionDispatchObserver {
    private struct InFlight: Sendable {
        var start: Duration
        var attributes: [String: AnalyticsValue]
    }

    /// Where events go.
    public let provider: any AnalyticsProvider
    private let scheduler: any ActuateScheduler
    private let inFlight = Mutex<[UInt64: InFlight]>([:])

    /// Creates the plugin.
    ///
    /// - Parameters:
    ///   - provider: Where events go.
    ///   - scheduler: The clock for event dates and durations; tests pass a `TestScheduler`.
    public init(provider: any AnalyticsProvider, scheduler: any ActuateScheduler = SystemScheduler.shared) {
        self.provider = provider
        self.scheduler = scheduler
    }

    /// The number of tracked actions that have begun and not yet ended.
    public var inFlightCount: Int { inFlight.withLock { $0.count } }

    public func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        guard let analyticsID = request.action.analyticsID else { return }
        let attributes = A.analyticsAttributes(forRequest: request) ?? [:]
        let start = scheduler.uptime()
        inFlight.withLock { $0[request.uniqueID] = InFlight(start: start, attributes: attributes) }
        provider.track(event(.began, analyticsID, request, attributes: attributes))
    }

    public func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        guard let analyticsID = request.action.analyticsID else { return }
        let end = scheduler.uptime()
        let begun = inFlight.withLock { $0.removeValue(forKey: request.uniqueID) }
        // The dispatcher pairs every completion with a begin, so `begun` is only missing if this plugin is
        // shared between dispatchers; the event is still sent, without a duration.
        let attributes = begun?.attributes ?? A.analyticsAttributes(forRequest: request) ?? [:]
        var ended = event(.ended, analyticsID, request, attributes: attributes)
        ended.outcome = AnalyticsOutcome(outcome)
        ended.terminatedFeature = outcome.terminatesFeature
        ended.duration = begun.map { (end - $0.start).seconds }
        provider.track(ended)
    }

    private func event<F, A>(
        _ phase: AnalyticsEvent.Phase,
        _ analyticsID: String,
        _ request: ActionRequest<F, A>,
        attributes: [String: AnalyticsValue]
    ) -> AnalyticsEvent {
        AnalyticsEvent(
            phase: phase,
            analyticsID: analyticsID,
            requestID: request.uniqueID,
            actionName: request.action.name,
            featurePath: request.feature.path,
            sessionName: request.sessionName,
            source: request.source,
            userInitiated: request.userInitiated,
            inputDescription: request.inputDescription,
            attributes: attributes,
            date: scheduler.now()
        )
    }
}
