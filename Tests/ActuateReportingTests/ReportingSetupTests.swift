import ActuateReporting
import ActuateTesting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins

@Suite("Reporting setup")
struct ReportingSetupTests {
    @Test("setup installs the reporting plugins after the app's own, and observes the URL router")
    func installsEverything() async throws {
        let stacks = ActionStacksPlugin()
        let store = MemoryEventStore()
        let scheduler = TestScheduler()
        let reporter = Reporter(
            store: store,
            delivery: nil,
            scheduler: scheduler,
            identity: Identity(storage: MemoryIdentityStorage())
        )
        let system = try ActuateSystem.setup(
            group: HookApp.self,
            dispatching: .isolated(scheduler: scheduler, diagnostics: RecordingDiagnostics()),
            configuration: ActuateConfiguration(
                plugins: [stacks],
                routes: URLRouterConfiguration(appSchemes: ["shop"])
            ),
            reporting: ReportingSetup(reporter: reporter, activityPublisher: RecordingActivityPublisher())
        )
        let kinds = system.plugins.map { String(describing: type(of: $0)) }
        #expect(
            kinds == [
                "ActionStacksPlugin", "ReportingPlugin", "AnalyticsPlugin", "ActivitiesPlugin", "ActionFailureReporter",
            ]
        )
        #expect(system.dispatcher.installedPlugins.count == kinds.count + 1, "the timeline comes first")

        _ = await system.open(url: URL(string: "shop://nowhere")!)
        await system.mainSession.perform(
            StoreFeature.checkout,
            input: CheckoutInput(items: 2, fail: false),
            presenter: ()
        )
        let types = try store.fetch(count: 100, maxBytes: .max).map(\.type)
        #expect(types == ["session_start", "url_opened", "checkout"])
    }

    @Test("without an activity publisher or failure recording, those plugins are not installed")
    func optionalParts() throws {
        let reporter = Reporter(
            store: MemoryEventStore(),
            delivery: nil,
            scheduler: TestScheduler(),
            identity: Identity(storage: MemoryIdentityStorage())
        )
        let system = try ActuateSystem.setup(
            group: HookApp.self,
            dispatching: .isolated(scheduler: TestScheduler()),
            reporting: ReportingSetup(reporter: reporter, recordsFailures: false)
        )
        #expect(system.plugins.map { String(describing: type(of: $0)) } == ["ReportingPlugin", "AnalyticsPlugin"])
    }
}
