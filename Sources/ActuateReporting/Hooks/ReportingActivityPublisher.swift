import Actuate

/// An `ActivityPublisher` that records every published activity as an `activity_published` event, then hands
/// it to the publisher it wraps.
///
/// The event carries `activityType`, `action` (the display name), `feature` (the path) and `eligibility` (a
/// sorted array of names). The title, keywords, URL and user info are not recorded: they may hold what the
/// user looked at.
///
/// <!-- readme: package-only -->
/// ```swift
/// let publisher = ReportingActivityPublisher(reporter: reporter, forwardingTo: RecordingActivityPublisher())
/// dispatcher.add(plugin: ActivitiesPlugin(publisher: publisher, activityTypePrefix: "com.example.shop"))
/// ```
package struct ReportingActivityPublisher: ActivityPublisher {
    /// The publisher that makes activities known to the system, if any.
    package let next: (any ActivityPublisher)?
    private let reporter: Reporter

    /// Creates the publisher.
    ///
    /// - Parameters:
    ///   - reporter: Where events are recorded.
    ///   - next: The publisher each activity goes to after it is recorded; nil to only record.
    package init(reporter: Reporter, forwardingTo next: (any ActivityPublisher)?) {
        self.reporter = reporter
        self.next = next
    }

    package func publish(_ activity: PublishedActivity) {
        reporter.record(
            type: .activityPublished,
            properties: [
                ReportEventKey.activityType: .string(activity.activityType),
                ReportEventKey.action: .string(activity.actionName),
                ReportEventKey.feature: .string(activity.featurePath.description),
                ReportEventKey.eligibility: .array(activity.eligibility.map(\.rawValue).sorted().map { .string($0) }),
            ]
        )
        next?.publish(activity)
    }
}
