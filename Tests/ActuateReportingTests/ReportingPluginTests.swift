import ActuateReporting
import Dispatch
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateTesting

enum PluginTestQueue {
    static let queue = DispatchQueue(label: "actuate.reporting-tests.plugin")
}

struct CheckoutInput: Loggable {
    var items: Int
    var fail: Bool
    var loggingDescription: String { "\(items) items" }
}

struct PaymentDeclined: Error, Loggable {
    var loggingDescription: String { "card declined" }
}

final class ReportedCheckoutAction: Action, ReportedAction {
    typealias InputType = CheckoutInput
    static var queue: DispatchQueue { PluginTestQueue.queue }
    static var reportEventType: ReportEventType { "checkout" }

    static func reportProperties(
        for context: ActionContext<CheckoutInput>,
        outcome: ActionPerformOutcome
    )
        -> [String: JSONValue]
    {
        ["items": .number(Double(context.input.items)), "outcome": "overridden?"]
    }

    static func perform(
        context: ActionContext<CheckoutInput>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(
            context.input.fail ? .failure(error: PaymentDeclined()) : .successWithFeatureTermination
        )
    }
}

final class UnreportedBrowseAction: Action {
    static var queue: DispatchQueue { PluginTestQueue.queue }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class ReportedDefaultsAction: Action, ReportedAction {
    static var queue: DispatchQueue { PluginTestQueue.queue }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        let status = completion.willCompleteAsync()
        PluginTestQueue.queue.async { status.completed(.success) }
        return status
    }
}

final class StoreFeature: Feature {
    static let checkout = action(ReportedCheckoutAction.self)
    static let browse = action(UnreportedBrowseAction.self)
    static let defaults = action(ReportedDefaultsAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(checkout)
        actions.declare(browse)
        actions.declare(defaults)
    }
}

@Suite("Reporting plugin")
struct ReportingPluginTests {
    private struct Fixture {
        let store = MemoryEventStore()
        let harness: ActionTestHarness
        let reporter: Reporter
        let plugin: ReportingPlugin

        init() {
            let scheduler = TestScheduler()
            let reporter = Reporter(
                store: store,
                delivery: nil,
                scheduler: scheduler,
                identity: Identity(storage: MemoryIdentityStorage())
            )
            let plugin = ReportingPlugin(reporter: reporter)
            self.reporter = reporter
            self.plugin = plugin
            self.harness = ActionTestHarness(plugins: [plugin])
        }

        func actionEvents() throws -> [ReportEvent] {
            try store.fetch(count: 100, maxBytes: .max).filter { $0.type != "session_start" }
        }
    }

    @Test("records the outcome of an action that opts in, with its own properties")
    func recordsOptedInAction() async throws {
        let fixture = Fixture()
        _ = await fixture.harness.perform(
            StoreFeature.checkout,
            input: CheckoutInput(items: 3, fail: false),
            presenter: ()
        )
        let event = try #require(try fixture.actionEvents().first)
        #expect(event.type == "checkout")
        #expect(event.properties["action"] == "Reported Checkout")
        #expect(event.properties["feature"] == "StoreFeature")
        #expect(event.properties["session"] == "test")
        #expect(event.properties["outcome"] == "success")
        #expect(event.properties["featureTerminated"] == true)
        #expect(event.properties["items"] == 3)
        #expect(event.properties["durationSeconds"] == 0)
    }

    @Test("records failures with the error's logging description")
    func recordsFailure() async throws {
        let fixture = Fixture()
        _ = await fixture.harness.perform(
            StoreFeature.checkout,
            input: CheckoutInput(items: 1, fail: true),
            presenter: ()
        )
        let event = try #require(try fixture.actionEvents().first)
        #expect(event.properties["outcome"] == "failure")
        #expect(event.properties["error"] == "card declined")
    }

    @Test("records nothing for actions that don't opt in")
    func ignoresOthers() async throws {
        let fixture = Fixture()
        _ = await fixture.harness.perform(StoreFeature.browse, input: .noInput, presenter: ())
        #expect(try fixture.store.count() == 0)
    }

    @Test("uses the default event type for actions that complete asynchronously")
    func defaultsAndAsync() async throws {
        let fixture = Fixture()
        _ = await fixture.harness.perform(StoreFeature.defaults, input: .noInput, presenter: ())
        let events = try fixture.actionEvents()
        #expect(events.map(\.type) == ["action"])
        #expect(events.first?.properties["action"] == "Reported Defaults")
    }

    @Test("consent applies: nothing is stored while tracking consent is denied")
    func respectsConsent() async throws {
        let fixture = Fixture()
        fixture.reporter.setTrackingConsent(.denied)
        _ = await fixture.harness.perform(
            StoreFeature.checkout,
            input: CheckoutInput(items: 1, fail: false),
            presenter: ()
        )
        #expect(try fixture.store.count() == 0)
        #expect(fixture.reporter.suppressedEventCount >= 1)
    }
}
