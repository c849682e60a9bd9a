import ActuateTesting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateReporting

@Suite("Hooks to the collector over loopback HTTP")
struct HooksLoopbackTests {
    @Test("analytics, activity, route and failure-excerpt events reach the collector in order, exactly once")
    func hooksReachTheCollector() async throws {
        let directory = TemporaryDirectory()
        let scheduler = TestScheduler()
        let store = try FileEventStore(
            directory: directory.url,
            configuration: FileEventStoreConfiguration(scheduler: scheduler)
        )

        try await TestCollector.with(script: ["500"]) { collector in
            let uploader = EventUploader(
                store: store,
                transport: try HTTPEventTransport(
                    endpoint: collector.batchURL,
                    apiKey: "hooks-key",
                    timeout: .seconds(5)
                ),
                scheduler: scheduler,
                configuration: EventUploader.Configuration(flushPolicies: [.manual], maxBatchCount: 4, random: { 0.5 })
            )
            let reporter = Reporter(
                store: store,
                delivery: uploader,
                scheduler: scheduler,
                identity: Identity(storage: MemoryIdentityStorage())
            )
            let activityRouter = ActivityRouter(activityTypePrefix: "com.example.shop")
            let system = try ActuateSystem.setup(
                group: HookApp.self,
                dispatching: .isolated(scheduler: scheduler, diagnostics: RecordingDiagnostics()),
                configuration: ActuateConfiguration(
                    routes: URLRouterConfiguration(appSchemes: ["shop"])
                ),
                reporting: ReportingSetup(
                    reporter: reporter,
                    timelineExcerpt: TimelineExcerptPolicy(maxEntries: 4, maxBytes: 2_048),
                    activityPublisher: RecordingActivityPublisher(),
                    activityTypePrefix: "com.example.shop",
                    activityRouter: activityRouter
                )
            )
            let activityType = activityRouter.register(HookShopFeature.viewProduct) { userInfo in
                guard let id = userInfo["id"].flatMap(Int.init) else {
                    throw ActivityContinuationError.missingUserInfoKey("id")
                }
                return id
            }

            await system.mainSession.perform(HookShopFeature.viewProduct, input: 1, presenter: ())
            _ = await system.open(url: URL(string: "shop://product/2")!)
            _ = await system.open(url: URL(string: "shop://retired/link")!)
            _ = await activityRouter.continue(
                activityType: activityType,
                userInfo: ["id": "3"],
                session: system.mainSession
            )
            let declined = HookPayment(card: Redacted(HookSecrets.card), amount: 9, declines: true)
            await system.mainSession.perform(HookShopFeature.pay, input: declined, presenter: ())

            let recorded = try store.fetch(count: 1_000, maxBytes: .max)
            let types = recorded.map(\.type)
            #expect(
                types == [
                    "session_start",
                    "action_began", "action_ended", "activity_published",
                    "action_began", "action_ended", "activity_published", "url_opened",
                    "url_opened",
                    "action_began", "action_ended", "activity_published", "activity_continued",
                    "action_began", "action_ended", "error",
                ]
            )
            let failure = try #require(recorded.last)
            guard case .array(let excerpt) = try #require(failure.properties["timeline"]) else {
                Issue.record("the failure carries no timeline excerpt")
                return
            }
            #expect(excerpt.count == 4)

            await reporter.flush()
            while let next = uploader.status.nextAttemptUptime {
                scheduler.advance(by: next - scheduler.uptime())
                await uploader.waitUntilIdle()
            }

            let stats = try await collector.stats()
            #expect(stats.ids == recorded.map(\.id.uuidString))
            #expect(stats.unique == recorded.count)
            #expect(stats.duplicates == 0)
            #expect(stats.malformed == 0)
            #expect(stats.log.map(\.status) == [500] + Array(repeating: 200, count: (recorded.count + 3) / 4))
            #expect(stats.lastAuthorization?.isEmpty == false)
            #expect(try store.count() == 0)
            #expect(try store.deadLetters().isEmpty)
        }
    }
}
