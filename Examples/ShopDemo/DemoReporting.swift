import Actuate
import ActuateReporting
import Foundation

/// The demo's reporting pipeline: a durable event store in a temporary directory, fed by the reporting
/// plugin. No collector runs here, so events stay on disk, where uploads would resume.
struct DemoReporting {
    let directory: URL
    let store: FileEventStore
    let reporter: Reporter
    let plugin: ReportingPlugin

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
        plugin = ReportingPlugin(reporter: reporter)
    }

    /// Closes the store and removes the demo's files.
    func finish() {
        try? store.close()
        try? FileManager.default.removeItem(at: directory)
    }
}
