import Actuate
import Foundation
import Synchronization

/// A dispatcher plugin that records every failed action as an `error` event, optionally with the last
/// timeline entries of its session, so that the server sees what led to a failure without asking the user for
/// a debug dump.
///
/// The event is a content `error` (``ReportEventType/error``) from the source `ContentSource/appAction`,
/// with these properties:
///
/// | property | value |
/// |---|---|
/// | `contentSource`, `actionId`, `actionName` | `appAction`; the action's `analyticsID`, or `<feature path>/<action type>`; its display name |
/// | `message` | the failure, described by `ActionPerformOutcome.errorDescription` (so `Loggable` errors redact themselves) |
/// | `feature`, `session`, `requestId` | the feature's path, the `ActionSession`'s name and the request id |
/// | `source` (and `activityType`), `featureTerminated` | where the request came from; whether the feature's use ended |
/// | `timeline`, `timelineOmitted` | with an excerpt policy: the last entries of the session (see ``TimelineExcerptPolicy``) |
///
/// Cancelled actions are not failures here and record nothing. Timeline entries carry the input's
/// `loggingDescription`, never error messages of earlier actions. Consent applies as for any event.
///
/// <!-- readme: package-only -->
/// ```swift
/// let failures = ActionFailureReporter(reporter: reporter, timeline: timeline, excerpt: TimelineExcerptPolicy())
/// dispatcher.add(plugin: failures)
/// ```
///
/// Install it after the timeline, so that the excerpt includes the failing action's own completion.
package final class ActionFailureReporter: ActionDispatchPlugin {
    /// How much of the timeline travels with each `error` event; nil sends none.
    package let excerpt: TimelineExcerptPolicy?
    private let reporter: Reporter
    private let timeline: Mutex<Timeline?>

    /// Creates the plugin.
    ///
    /// - Parameters:
    ///   - reporter: Where events are recorded.
    ///   - timeline: The timeline excerpts are taken from; nil sends none.
    ///   - excerpt: How much of the timeline to send; nil (the default) sends none.
    package init(reporter: Reporter, timeline: Timeline? = nil, excerpt: TimelineExcerptPolicy? = nil) {
        self.reporter = reporter
        self.timeline = Mutex(timeline)
        self.excerpt = excerpt
    }

    /// Takes excerpts from `timeline` from now on; setup uses it once the system's timeline exists.
    func attach(timeline: Timeline) {
        self.timeline.withLock { $0 = timeline }
    }

    package func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {}

    package func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        guard !outcome.isCancellation, let message = outcome.errorDescription else { return }
        let actionID = A.analyticsID ?? "\(request.feature.path)/\(request.action.typeName)"
        var properties = EventProperties.content(
            ContentReference(source: .appAction, id: actionID, name: request.action.name)
        )
        properties[ReportEventKey.message] = .string(message)
        properties[ReportEventKey.feature] = .string(request.feature.path.description)
        properties[ReportEventKey.session] = .string(request.sessionName)
        properties[ReportEventKey.requestID] = .number(Double(request.uniqueID))
        properties[ReportEventKey.featureTerminated] = .bool(outcome.terminatesFeature)
        properties.merge(HookProperties.source(request.source)) { _, source in source }
        if let excerpt, let timeline = timeline.withLock({ $0 }) {
            let built = TimelineExcerpt(timeline.snapshot(), sessionName: request.sessionName, policy: excerpt)
            properties[ReportEventKey.timeline] = .array(built.entries)
            properties[ReportEventKey.timelineOmitted] = .number(Double(built.omitted))
        }
        reporter.record(type: .error, properties: properties)
    }
}
