import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateTesting

@Suite("Activities plugin")
struct ActivitiesPluginTests {
    /// A harness with an activities plugin that publishes into `publisher` and reports to the harness.
    private struct Setup {
        let harness = ActionTestHarness()
        let publisher = RecordingActivityPublisher()

        init(prefix: String = "com.example.shop") {
            let plugin = ActivitiesPlugin(
                publisher: publisher,
                diagnostics: harness.diagnostics,
                activityTypePrefix: prefix
            )
            harness.dispatcher.add(plugin: plugin)
        }
    }

    private static let socks = ProductInput(sku: "42", name: "Socks")

    private static func decodeProduct(_ userInfo: [String: String]) throws -> ProductInput {
        guard let sku = userInfo["sku"] else { throw ActivityContinuationError.missingUserInfoKey("sku") }
        return ProductInput(sku: sku, name: userInfo["name"] ?? "?")
    }

    @Test("a successful action publishes the activity it prepared", arguments: [Ending.success, .successTerminating])
    func publishesAfterSuccess(ending: Ending) async throws {
        let setup = Setup()
        var input = Self.socks
        input.ending = ending
        await setup.harness.perform(ActivityCatalogFeature.viewProduct, input: input, presenter: ())

        #expect(setup.publisher.activities.count == 1)
        let activity = try #require(setup.publisher.current)
        #expect(activity.activityType == "com.example.shop.ActivityCatalogFeature.ActivityViewProductAction")
        #expect(activity.title == "View Socks")
        #expect(activity.subtitle == "Product")
        #expect(activity.keywords == ["product", "Socks"])
        #expect(activity.userInfo == ["sku": "42", "name": "Socks"])
        #expect(activity.requiredUserInfoKeys == ["sku"])
        #expect(activity.url == URL(string: "https://shop.example/products/42"))
        #expect(activity.eligibility == [.handoff, .search, .prediction])
        #expect(activity.suggestedInvocationPhrase == "Show the product")
        #expect(activity.actionName == "View Product")
        #expect(activity.featurePath == ActivityCatalogFeature.identifier)
        setup.harness.checkDiagnostics()
    }

    @Test(
        "a failed or cancelled action publishes nothing",
        arguments: [Ending.failure("out of stock"), .failureTerminating("gone"), .cancelled]
    )
    func nothingAfterFailure(ending: Ending) async {
        let setup = Setup()
        var input = Self.socks
        input.ending = ending
        let outcome = await setup.harness.perform(ActivityCatalogFeature.viewProduct, input: input, presenter: ())
        #expect(!outcome.isSuccess)
        #expect(setup.publisher.activities.isEmpty)
        setup.harness.checkDiagnostics()
    }

    @Test("an action with no activity eligibility publishes nothing")
    func nothingWithoutEligibility() async {
        let setup = Setup()
        await setup.harness.perform(ActivityCatalogFeature.plain, input: .noInput, presenter: ())
        await setup.harness.perform(ActivityCatalogFeature.viewProduct, input: Self.socks, presenter: ())
        #expect(setup.publisher.activities.map(\.actionName) == ["View Product"])
    }

    @Test("a throwing prepareActivity reports a plugin failure and publishes nothing")
    func throwingPrepare() async throws {
        let setup = Setup()
        var input = Self.socks
        input.prepare = .fail
        let outcome = await setup.harness.perform(ActivityCatalogFeature.viewProduct, input: input, presenter: ())
        #expect(outcome.isSuccess, "the action itself is not affected")
        #expect(setup.publisher.activities.isEmpty)
        let diagnostic = try #require(setup.harness.expectDiagnostic(.pluginFailure))
        #expect(setup.harness.diagnostics.kinds == [.pluginFailure])
        #expect(diagnostic.actionName == "View Product")
        #expect(diagnostic.sessionName == "test")
        #expect(diagnostic.message.contains("no title for 42"))
    }

    @Test("cancel() or narrowing eligibility to nothing publishes nothing, silently")
    func cancelled() async {
        let setup = Setup()
        for behaviour in [PrepareBehaviour.cancel, .narrowToNothing] {
            var input = Self.socks
            input.prepare = behaviour
            await setup.harness.perform(ActivityCatalogFeature.viewProduct, input: input, presenter: ())
        }
        #expect(setup.harness.recorder.completedActionNames == ["View Product", "View Product"])
        #expect(setup.publisher.activities.isEmpty)
        setup.harness.checkDiagnostics()
    }

    @Test("required user-info keys without a value are reported instead of publishing an activity nobody can continue")
    func missingRequiredKey() async throws {
        let setup = Setup()
        var input = Self.socks
        input.prepare = .forgetRequiredKey
        await setup.harness.perform(ActivityCatalogFeature.viewProduct, input: input, presenter: ())
        #expect(setup.publisher.activities.isEmpty)
        let diagnostic = try #require(setup.harness.expectDiagnostic(.pluginFailure))
        #expect(diagnostic.kind == .pluginFailure)
        #expect(diagnostic.message.contains("[\"sku\"]"))
    }

    @Test("continuing an activity performs the registered action with a continueActivity source")
    func continuation() async throws {
        let setup = Setup()
        let router = ActivityRouter(activityTypePrefix: "com.example.shop")
        let type = router.register(ActivityCatalogFeature.viewProduct, decodeInput: Self.decodeProduct)
        #expect(type == "com.example.shop.ActivityCatalogFeature.ActivityViewProductAction")
        #expect(router.activityTypes == [type])

        let result = await router.continue(
            activityType: type,
            userInfo: ["sku": "7", "name": "Hat"],
            session: setup.harness.session
        )
        #expect(result.isSuccess)
        let began = try #require(setup.harness.recorder.events.first)
        #expect(began.request.source == .continueActivity(type: type))
        #expect(began.request.inputDescription == "7 Hat")
        #expect(began.request.userInitiated)
        #expect(setup.harness.timeline.snapshot().map(\.source) == [.continueActivity(type: type)])
    }

    @Test("an activity published with default prefixes is continued by a router with default prefixes")
    func roundTrip() async throws {
        let setup = Setup(prefix: ActivitiesPlugin.defaultActivityTypePrefix)
        let router = ActivityRouter()
        router.register(ActivityCatalogFeature.viewProduct, decodeInput: Self.decodeProduct)
        await setup.harness.perform(ActivityCatalogFeature.viewProduct, input: Self.socks, presenter: ())
        let published = try #require(setup.publisher.current)

        let result = await router.continue(
            activityType: published.activityType,
            userInfo: published.userInfo,
            session: setup.harness.session
        )
        #expect(result.isSuccess)
        #expect(setup.harness.recorder.beganActionNames == ["View Product", "View Product"])
        #expect(setup.publisher.activities.count == 2, "the continued action publishes its activity again")
    }

    @Test("an unknown activity type is no match, and nothing is performed")
    func noMatch() async {
        let setup = Setup()
        let router = ActivityRouter(activityTypePrefix: "com.example.shop")
        router.register(ActivityCatalogFeature.viewProduct, decodeInput: Self.decodeProduct)
        let result = await router.continue(
            activityType: "com.example.shop.Unknown",
            userInfo: [:],
            session: setup.harness.session
        )
        guard case .noMatch = result else {
            Issue.record("expected noMatch, got \(result)")
            return
        }
        #expect(setup.harness.recorder.events.isEmpty)
    }

    @Test("user info that cannot be decoded is bad input, and nothing is performed")
    func badInput() async {
        let setup = Setup()
        let router = ActivityRouter(activityTypePrefix: "com.example.shop")
        let type = router.register(ActivityCatalogFeature.viewProduct, decodeInput: Self.decodeProduct)
        let result = await router.continue(
            activityType: type,
            userInfo: ["name": "Hat"],
            session: setup.harness.session
        )
        guard case .badInput(let error) = result else {
            Issue.record("expected badInput, got \(result)")
            return
        }
        #expect(error as? ActivityContinuationError == .missingUserInfoKey("sku"))
        #expect(setup.harness.recorder.events.isEmpty)
    }

    @Test("a continued action that fails is performed, with its failure")
    func continuedFailure() async {
        let setup = Setup()
        let router = ActivityRouter(activityTypePrefix: "com.example.shop")
        let type = router.register(ActivityCatalogFeature.viewProduct) { userInfo in
            ProductInput(sku: userInfo["sku"] ?? "", name: "", ending: .failure("discontinued"))
        }
        let result = await router.continue(activityType: type, userInfo: ["sku": "1"], session: setup.harness.session)
        guard case .performed(let outcome) = result else {
            Issue.record("expected performed, got \(result)")
            return
        }
        #expect(outcome.error is FixtureError)
        #expect(!result.isSuccess)
        router.unregister(activityType: type)
        #expect(router.activityTypes.isEmpty)
    }

    @Test("a published activity encodes to JSON and decodes back")
    func codable() async throws {
        let setup = Setup()
        await setup.harness.perform(ActivityCatalogFeature.viewProduct, input: Self.socks, presenter: ())
        let activity = try #require(setup.publisher.current)
        let decoded = try JSONDecoder().decode(PublishedActivity.self, from: JSONEncoder().encode(activity))
        #expect(decoded == activity)
    }
}
