import Actuate
import ActuatePersonalization
import ActuateReporting
import Foundation

/// The demo's reporting pipeline: a durable event store in a temporary directory, fed by every hook (analytics,
/// failures with a timeline excerpt, activities, URL routes and reported actions) through one `ReportingSetup`.
/// No collector runs here, so events stay on disk, where uploads would resume.
struct DemoReporting {
    let directory: URL
    let store: FileEventStore
    let reporter: Reporter

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("shop-demo-\(ProcessInfo.processInfo.processIdentifier)")
        store = try FileEventStore(directory: directory.appendingPathComponent("events"))
        reporter = Reporter(
            store: store,
            delivery: nil,
            scheduler: SystemScheduler.shared,
            identity: Identity(storage: FileIdentityStorage(directory: directory))
        )
    }

    /// What the demo's system installs to feed the reporter: its console analytics ride along, failures carry the
    /// last five timeline entries of their session, and activities are recorded before `activities` gets them.
    func setup(activities: any ActivityPublisher) -> ReportingSetup {
        ReportingSetup(
            reporter: reporter,
            analyticsProviders: [ConsoleAnalytics()],
            timelineExcerpt: TimelineExcerptPolicy(maxEntries: 5, maxBytes: 4_096),
            activityPublisher: activities,
            activityTypePrefix: "com.example.shop",
            forceTrackingParameter: ContentBlockConfiguration.defaultForceTrackParameter
        )
    }

    /// The statistics of everything recorded so far, as the demo prints them: content and per-action figures.
    func statistics() throws -> ReportingStatistics {
        try ReportingStatistics(store: store)
    }

    /// Closes the store and removes the demo's files.
    func finish() {
        try? store.close()
        try? FileManager.default.removeItem(at: directory)
    }
}
