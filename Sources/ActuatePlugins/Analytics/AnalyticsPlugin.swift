import ActuateCore
import Foundation
import Synchronization

/// A plugin that sends a begin and an end event to an ``AnalyticsProvider`` for every action that has an
/// `Action.analyticsID`.
///
/// Actions without an identifier send nothing. Each event carries the action's
/// `Action.analyticsAttributes(forRequest:)` (asked once per request, when it begins), the input's
/// `Loggable.loggingDescription` (so `Redacted` values stay redacted), and, at the end, the outcome and
/// the duration, all on the clock of the dispatcher it is added to.
///
/// ```swift
/// let analytics = AnalyticsPlugin(provider: MultiplexAnalyticsProvider([mySDKAdapter, ConsoleAnalyticsProvider()]))
/// dispatcher.add(plugin: analytics)
/// ```
///
/// Install one plugin per dispatcher: it pairs begin and end events by request identifier, which is unique
/// per dispatcher.
public final class AnalyticsPlugin: ActionDispatchPlugin {
    /// Where events go.
    let provider: any AnalyticsProvider
    /// The attributes of each tracked action that has begun and not ended, asked for once when it began.
    private let inFlight = Mutex<[UInt64: [String: AnalyticsValue]]>([:])
    /// `analyticsID`, held here so that a dispatch reads it with one load rather than a lazy global's check.
    private let analyticsIDTrait = AnalyticsPlugin.analyticsID

    /// Creates the plugin. Event dates and durations come from the clock of the dispatcher it is added to.
    ///
    /// - Parameter provider: Where events go.
    public init(provider: any AnalyticsProvider) {
        self.provider = provider
    }

    /// The number of tracked actions that have begun and not yet ended.
    var inFlightCount: Int { inFlight.withLock { $0.count } }

    /// The action's `Action.analyticsID`, resolved once per action type; actions without one lack the trait.
    static let analyticsID = ActionTrait<String>("analyticsID") { action in action.analyticsID }

    // Both callbacks first check the trait, which needs no generic metadata, so that an action without an
    // analytics identifier costs one check.

    public func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        guard request.header.hasTrait(analyticsIDTrait) else { return }
        trackBegin(request)
    }

    public func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        guard request.header.hasTrait(analyticsIDTrait) else { return }
        trackEnd(request, outcome: outcome)
    }

    @inline(never)
    private func trackBegin<F, A>(_ request: ActionRequest<F, A>) {
        guard let analyticsID = request.trait(Self.analyticsID) else { return }
        let attributes = A.analyticsAttributes(forRequest: request) ?? [:]
        inFlight.withLock { $0[request.uniqueID] = attributes }
        provider.track(event(.began, analyticsID, request, attributes: attributes, date: request.date))
    }

    @inline(never)
    private func trackEnd<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        guard let analyticsID = request.trait(Self.analyticsID) else { return }
        let begun = inFlight.withLock { $0.removeValue(forKey: request.uniqueID) }
        // The dispatcher pairs every completion with a begin, so `begun` is only missing if this plugin is
        // shared between dispatchers; the event is still sent, with the attributes asked for again.
        let attributes = begun ?? A.analyticsAttributes(forRequest: request) ?? [:]
        var ended = event(.ended, analyticsID, request, attributes: attributes, date: request.completionDate)
        ended.outcome = AnalyticsOutcome(outcome)
        ended.terminatedFeature = outcome.terminatesFeature
        ended.duration = request.duration
        provider.track(ended)
    }

    private func event<F, A>(
        _ phase: AnalyticsEvent.Phase,
        _ analyticsID: String,
        _ request: ActionRequest<F, A>,
        attributes: [String: AnalyticsValue],
        date: Date?
    ) -> AnalyticsEvent {
        AnalyticsEvent(
            phase: phase,
            analyticsID: analyticsID,
            requestID: request.uniqueID,
            actionName: request.action.name,
            featurePath: request.feature.path,
            sessionName: request.sessionName,
            source: request.header.source,
            userInitiated: request.userInitiated,
            inputDescription: request.header.inputDescription,
            attributes: attributes,
            date: date ?? request.date
        )
    }
}
