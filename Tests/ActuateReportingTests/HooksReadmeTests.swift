import ActuateTesting
import Dispatch
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateReporting

// The "From hooks to reports" snippets (the ActuateReporting DocC article, once the README's), verbatim, with
// what they assume around them.

/// The app's features in the README's snippets.
final class AppFeatures: FeatureGroup {
    static var subfeatures: [any FeatureDefinition.Type] { [PaymentsFeature.self] }
    static func prepare(actions: FeatureActionsBuilder) {}
}

final class PaymentsFeature: Feature {
    static let pay = action(PayAction.self)
    static func prepare(actions: FeatureActionsBuilder) { actions.declare(pay) }
}

/// An analytics SDK adapter, as the README names it.
struct MySDK: AnalyticsProvider {
    func track(_ event: AnalyticsEvent) {}
}

struct Payment: Loggable {
    var card: Redacted<String>
    var amount: Int
    var loggingDescription: String { "\(amount), card \(card.loggingDescription)" }
}

// README snippet: the action.
final class PayAction: Action {
    typealias InputType = Payment  // card: Redacted<String>, amount: Int
    static var analyticsID: String? { "pay" }
    static func analyticsAttributes<F>(forRequest request: ActionRequest<F, PayAction>) -> [String: AnalyticsValue]? {
        ["card": .loggable(request.context.input.card), "amount": .int(request.context.input.amount)]
    }
    // perform(context:presenter:completion:) as for any action
}

extension PayAction {
    static var queue: DispatchQueue { HookQueues.queue }

    static func perform(context: ActionContext<Payment>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(context.input.amount > 100 ? .failure(error: HookCardDeclined(number: "x")) : .success)
    }
}

/// The README's wiring, verbatim. It is compiled here but not run: `quickSetup` replaces the process-wide system,
/// which other tests running in parallel use; the test below runs the same wiring on an isolated dispatcher.
@discardableResult
func readmeQuickSetup(reporter: Reporter) throws -> ActuateSystem {
    let activityRouter = ActivityRouter(activityTypePrefix: "com.example.shop")
    let system = try ActuateSystem.quickSetup(
        group: AppFeatures.self,
        configuration: ActuateConfiguration(routes: URLRouterConfiguration(appSchemes: ["shop"])),
        reporting: ReportingSetup(
            reporter: reporter,  // the Reporter above
            analyticsProviders: [MySDK()],  // your SDK gets the same events
            timelineExcerpt: TimelineExcerptPolicy(maxEntries: 20, maxBytes: 8_192),  // opt-in
            activityPublisher: RecordingActivityPublisher(),  // UserActivityPublisher() on Apple platforms
            activityTypePrefix: "com.example.shop",
            activityRouter: activityRouter
        )
    )
    // Tests: ActuateSystem.setup(group:configuration:reporting:) with an isolated dispatcher.
    return system
}

@Suite("README: from hooks to reports")
struct HooksReadmeTests {
    @Test("the README's action and statistics snippets run and give the per-action figures")
    func snippets() async throws {
        let directory = TemporaryDirectory()
        let scheduler = TestScheduler()
        let store = try FileEventStore(
            directory: directory.url,
            configuration: FileEventStoreConfiguration(scheduler: scheduler)
        )
        let reporter = Reporter(
            store: store,
            delivery: nil,
            scheduler: scheduler,
            identity: Identity(storage: MemoryIdentityStorage())
        )
        let system = try ActuateSystem.setup(
            group: AppFeatures.self,
            dispatching: .isolated(scheduler: scheduler, diagnostics: RecordingDiagnostics()),
            configuration: ActuateConfiguration(
                routes: URLRouterConfiguration(appSchemes: ["shop"])
            ),
            reporting: ReportingSetup(reporter: reporter, analyticsProviders: [MySDK()])
        )
        for amount in [10, 20, 500] {
            let payment = Payment(card: Redacted(HookSecrets.card), amount: amount)
            await system.mainSession.perform(PaymentsFeature.pay, input: payment, presenter: ())
        }

        // README snippet: statistics.
        let statistics = try ReportingStatistics(store: store)  // one streaming pass, a page at a time
        let pay = statistics[action: "pay"]  // performed, failed, failureRate, p50/p95, arrivals
        print(pay?.failureRate ?? 0, pay?.p95DurationSeconds ?? 0, pay?.arrivedFromURL ?? 0)
        print(statistics.arrivals.brokenLinks)  // links that led nowhere, most opened first
        print(statistics)  // the content table, then the actions table

        #expect(pay?.performed == 3)
        #expect(pay?.failed == 1)
        let stored = try store.fetch(count: 100, maxBytes: .max)
        #expect(stored.first { $0.type == "action_ended" }?.properties["attributes"] == ["amount": 10])
        #expect(!String(decoding: try JSONEncoder().encode(stored), as: UTF8.self).contains(HookSecrets.card))
    }

    @Test("the README's event names are the constants the hooks record under")
    func eventNames() {
        #expect(ReportEventType.actionBegan.rawValue == "action_began")
        #expect(ReportEventType.actionEnded.rawValue == "action_ended")
        #expect(ReportEventType.activityPublished.rawValue == "activity_published")
        #expect(ReportEventType.activityContinued.rawValue == "activity_continued")
        #expect(ReportEventType.urlOpened.rawValue == "url_opened")
        #expect(ReportEventType.error.rawValue == "error")
        #expect(ContentSource.appAction.rawValue == "appAction")
    }
}
