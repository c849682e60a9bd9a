import Actuate
import Foundation

/// An `AnalyticsProvider` that records every analytics event as a report event, so that actions instrumented
/// once with an `analyticsID` get durable, batched, consent-gated delivery with no second instrumentation.
///
/// Each `AnalyticsEvent` becomes one event, `action_began` (`ReportEventType/actionBegan`) or `action_ended`
/// (`ReportEventType/actionEnded`), with these properties:
///
/// | property | value |
/// |---|---|
/// | `analyticsId` | the action's `analyticsID` |
/// | `action`, `feature` | the action's display name and the feature's path |
/// | `session`, `requestId` | the `ActionSession`'s name and the request id shared by both events |
/// | `source` | `application`, `openURL`, `continueActivity` (with `activityType`) or `intent` |
/// | `userInitiated`, `input` | whether the user asked directly, and the input's `loggingDescription` |
/// | `attributes` | the action's analytics attributes as a JSON object (see below) |
/// | `outcome`, `error` | `action_ended` only: `success`, `failure` or `cancelled`, and a failure's `errorDescription` |
/// | `featureTerminated`, `durationSeconds` | `action_ended` only |
///
/// Attributes map to JSON by kind: strings and dates (ISO 8601) to strings, numbers to numbers, Booleans to
/// Booleans, string lists to arrays. An attribute whose value is `AnalyticsValue/redacted` (see
/// `AnalyticsValue.loggable(_:)`, which turns a `Redacted` value into it), or a number JSON cannot carry
/// (NaN, infinity), never reaches the store. An attribute named `tracking_forced` with the value `true` is not
/// stored as an attribute: it records the event through the force-tracking path, whatever the consent (use it
/// only where the user's own action asks for tracking).
///
/// <!-- readme: package-only -->
/// ```swift
/// let analytics = AnalyticsPlugin(provider: MultiplexAnalyticsProvider([
///     ReportingAnalyticsProvider(reporter: reporter), ConsoleAnalyticsProvider(),
/// ]))
/// dispatcher.add(plugin: analytics)
/// ```
///
/// `ActuateSystem.setup(group:configuration:reporting:)` installs it for you.
package struct ReportingAnalyticsProvider: AnalyticsProvider {
    /// Where events are recorded.
    package let reporter: Reporter

    /// Creates the provider.
    ///
    /// - Parameter reporter: Where events are recorded.
    package init(reporter: Reporter) {
        self.reporter = reporter
    }

    package func track(_ event: AnalyticsEvent) {
        let (properties, forced) = Self.properties(of: event)
        let type: ReportEventType = event.phase == .began ? .actionBegan : .actionEnded
        reporter.record(type: type, properties: properties, forceTracking: forced)
    }

    /// The properties of one analytics event, and whether it asks for forced tracking.
    static func properties(of event: AnalyticsEvent) -> ([String: JSONValue], forced: Bool) {
        var attributes: [String: JSONValue] = [:]
        var forced = false
        for (name, value) in event.attributes {
            if name == ReportEventKey.trackingForced {
                forced = value == .bool(true)
                continue
            }
            if let json = HookProperties.json(value) { attributes[name] = json }
        }
        var properties: [String: JSONValue] = [
            ReportEventKey.analyticsID: .string(event.analyticsID),
            ReportEventKey.action: .string(event.actionName),
            ReportEventKey.feature: .string(event.featurePath.description),
            ReportEventKey.session: .string(event.sessionName),
            ReportEventKey.requestID: .number(Double(event.requestID)),
            ReportEventKey.userInitiated: .bool(event.userInitiated),
            ReportEventKey.input: .string(event.inputDescription),
            ReportEventKey.attributes: .object(attributes),
        ]
        properties.merge(HookProperties.source(event.source)) { _, source in source }
        guard event.phase == .ended else { return (properties, forced) }
        switch event.outcome {
        case .success, nil: properties[ReportEventKey.outcome] = "success"
        case .cancelled: properties[ReportEventKey.outcome] = "cancelled"
        case .failure(let errorDescription):
            properties[ReportEventKey.outcome] = "failure"
            properties[ReportEventKey.error] = .string(errorDescription)
        }
        properties[ReportEventKey.featureTerminated] = .bool(event.terminatedFeature)
        if let duration = event.duration, duration.isFinite {
            properties[ReportEventKey.durationSeconds] = .number(duration)
        }
        return (properties, forced)
    }
}
