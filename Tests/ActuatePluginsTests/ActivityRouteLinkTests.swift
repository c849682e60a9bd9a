import ActuateTesting
import Dispatch
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuatePlugins

// MARK: - Fixtures

/// A product link: `id` in the path, an optional `ref` in the query.
struct LinkedProduct: Loggable, RouteParametersCodable, Equatable {
    var id: Int
    var ref: String?

    init(id: Int, ref: String? = nil) {
        self.id = id
        self.ref = ref
    }

    init(routeParameters: RouteParameters) throws {
        id = try routeParameters.value("id", as: Int.self)
        ref = routeParameters["ref"]
    }

    var routeParameterValues: RouteParameterValues {
        .named(["id": String(id), "ref": ref].compactMapValues { $0 })
    }

    var loggingDescription: String { "id=\(id) ref=\(ref ?? "-")" }
}

/// A routed action with activities and no `prepareActivity`: Flint's "needs no prepareActivity" case.
final class LinkedShowProductAction: Action {
    typealias InputType = LinkedProduct
    static var queue: DispatchQueue { TestQueues.background }
    static var activityEligibility: Set<ActivityEligibility> { [.handoff, .search] }

    static func perform(
        context: ActionContext<LinkedProduct>,
        presenter: Void,
        completion: Completion
    ) -> Completion.Status {
        completion.completedSync(.success)
    }
}

/// A routed action whose `prepareActivity` sets values of its own, one of them under a route parameter's name.
final class LinkedHandWrittenAction: Action {
    typealias InputType = Int
    static var queue: DispatchQueue { TestQueues.background }
    static var activityEligibility: Set<ActivityEligibility> { [.handoff] }

    static func prepareActivity(_ activity: ActivityBuilder<LinkedHandWrittenAction>) throws {
        activity.title = "Order \(activity.input)"
        activity.userInfo["order"] = "own-\(activity.input)"
        if activity.input < 0 { activity.url = nil }
    }

    static func perform(context: ActionContext<Int>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class LinkedShopFeature: Feature, URLMapped {
    static let showProduct = action(LinkedShowProductAction.self)
    static let showOrder = action(LinkedHandWrittenAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(showProduct)
        actions.declare(showOrder)
    }

    static func urlMappings(routes: URLMappingsBuilder<LinkedShopFeature>) {
        routes.send("product/$(id)", to: showProduct)
        routes.send("order/$(order)", to: showOrder)
    }
}

// MARK: - Tests

/// Flint: "You do not need to implement [prepareActivity] if your feature and action support URL Routes"; the
/// activity carries the route's URL, and continuing it performs the action through the router.
@Suite("Activities from URL routes")
struct ActivityRouteLinkTests {
    private static let prefix = "com.example.linked"

    /// A system on virtual time whose activities plugin was given no router: the system gives it its own.
    private struct Setup {
        let publisher = RecordingActivityPublisher()
        let recorder = RecordingPlugin()
        let diagnostics = RecordingDiagnostics()
        let system: ActuateSystem
        let activities: ActivityRouter

        init(routes: URLRouterConfiguration) throws {
            system = try ActuateSystem.setup(
                group: LinkedShopFeature.self,
                dispatching: .isolated(scheduler: TestScheduler(), diagnostics: diagnostics),
                configuration: ActuateConfiguration(
                    plugins: [
                        recorder,
                        ActivitiesPlugin(
                            publisher: publisher,
                            diagnostics: diagnostics,
                            activityTypePrefix: ActivityRouteLinkTests.prefix
                        ),
                    ],
                    routes: routes
                )
            )
            activities = ActivityRouter(activityTypePrefix: ActivityRouteLinkTests.prefix, urlRouter: system.router)
        }

        /// The requests that completed, in order.
        var completed: [ActionRequestSummary] {
            recorder.events.compactMap { if case .completed(let request, _, _) = $0 { request } else { nil } }
        }
    }

    private static let bothKinds = URLRouterConfiguration(
        appSchemes: ["shop"],
        universalLinkHosts: ["shop.example.com"]
    )

    @Test("an action with a route and no prepareActivity publishes its route link, parameters and web page URL")
    func publishesRouteLink() async throws {
        let setup = try Setup(routes: Self.bothKinds)
        await setup.system.mainSession.perform(LinkedShopFeature.showProduct, input: LinkedProduct(id: 42, ref: "mail"))

        let activity = try #require(setup.publisher.current)
        let link = "https://shop.example.com/product/42?ref=mail"
        #expect(activity.url == URL(string: link))
        #expect(activity.userInfo == [ActivitiesPlugin.routeURLUserInfoKey: link, "id": "42", "ref": "mail"])
        #expect(activity.requiredUserInfoKeys == [ActivitiesPlugin.routeURLUserInfoKey])
        #expect(UserActivityAttributes(activity).webpageURL == URL(string: link))
        #expect(setup.diagnostics.diagnostics.isEmpty)
    }

    @Test("with no universal-link host the activity carries the app link, which is not a web page URL")
    func appLinkOnly() async throws {
        let setup = try Setup(routes: URLRouterConfiguration(appSchemes: ["shop"]))
        await setup.system.mainSession.perform(LinkedShopFeature.showProduct, input: LinkedProduct(id: 7))

        let activity = try #require(setup.publisher.current)
        #expect(activity.url == URL(string: "shop://product/7"))
        #expect(activity.userInfo[ActivitiesPlugin.routeURLUserInfoKey] == "shop://product/7")
        #expect(UserActivityAttributes(activity).webpageURL == nil)
    }

    @Test("continuing the published activity performs the action through the router, with its input and source")
    func continuesThroughRouter() async throws {
        let setup = try Setup(routes: Self.bothKinds)
        await setup.system.mainSession.perform(LinkedShopFeature.showProduct, input: LinkedProduct(id: 42, ref: "mail"))
        let activity = try #require(setup.publisher.current)

        let result = await setup.activities.continue(
            activityType: activity.activityType,
            userInfo: activity.userInfo,
            session: setup.system.mainSession
        )

        #expect(result == .performed(.success))
        let continued = try #require(setup.completed.last)
        #expect(setup.completed.count == 2)
        #expect(continued.actionName == "Linked Show Product")
        #expect(continued.inputDescription == "id=42 ref=mail")
        #expect(continued.source == .continueActivity(type: activity.activityType))
        #expect(continued.userInitiated)
        #expect(activity.activityType == "\(Self.prefix).LinkedShopFeature.LinkedShowProductAction")
    }

    @Test("a registered decoder wins over the route link")
    func registrationWins() async throws {
        let setup = try Setup(routes: Self.bothKinds)
        await setup.system.mainSession.perform(LinkedShopFeature.showProduct, input: LinkedProduct(id: 42))
        let activity = try #require(setup.publisher.current)
        setup.activities.register(LinkedShopFeature.showProduct) { _ in LinkedProduct(id: 9, ref: "decoder") }

        let result = await setup.activities.continue(
            activityType: activity.activityType,
            userInfo: activity.userInfo,
            session: setup.system.mainSession
        )

        #expect(result == .performed(.success))
        #expect(setup.completed.last?.inputDescription == "id=9 ref=decoder")
    }

    @Test("prepareActivity's own values win, and setting url to nil publishes no link")
    func handWrittenValuesWin() async throws {
        let setup = try Setup(routes: URLRouterConfiguration(appSchemes: ["shop"]))
        await setup.system.mainSession.perform(LinkedShopFeature.showOrder, input: 5)
        let linked = try #require(setup.publisher.current)
        #expect(linked.title == "Order 5")
        #expect(linked.userInfo == [ActivitiesPlugin.routeURLUserInfoKey: "shop://order/5", "order": "own-5"])

        await setup.system.mainSession.perform(LinkedShopFeature.showOrder, input: -1)
        let unlinked = try #require(setup.publisher.current)
        #expect(unlinked.url == nil)
        #expect(unlinked.userInfo == ["order": "own--1"])
        #expect(unlinked.requiredUserInfoKeys.isEmpty)
    }

    @Test(
        "a route link that cannot be performed is bad input; one that leads nowhere is no match",
        arguments: [
            ("shop://product/forty-two", "bad parameter 'id'"), ("ftp://elsewhere/product/1", "unsupported scope"),
            ("not a url", "is invalid"), ("shop://nowhere", nil),
        ] as [(String, String?)]
    )
    func unusableLinks(link: String, expected: String?) async throws {
        let setup = try Setup(routes: Self.bothKinds)
        let result = await setup.activities.continue(
            activityType: "\(Self.prefix).LinkedShopFeature.LinkedShowProductAction",
            userInfo: [ActivitiesPlugin.routeURLUserInfoKey: link],
            session: setup.system.mainSession
        )
        if let expected {
            guard case .badInput(let error) = result else {
                Issue.record("expected bad input, got \(result)")
                return
            }
            #expect("\(error)".contains(expected))
        } else {
            #expect(result == .noMatch)
        }
        #expect(setup.completed.isEmpty)
    }

    @Test("without a URL router an activity carrying a route link is not continued")
    func noURLRouter() async throws {
        let setup = try Setup(routes: Self.bothKinds)
        let router = ActivityRouter(activityTypePrefix: Self.prefix)
        let result = await router.continue(
            activityType: "\(Self.prefix).LinkedShopFeature.LinkedShowProductAction",
            userInfo: [ActivitiesPlugin.routeURLUserInfoKey: "shop://product/1"],
            session: setup.system.mainSession
        )
        #expect(result == .noMatch)
        #expect(setup.completed.isEmpty)
    }

    @Test("a plugin given a router of its own keeps it when installed in a system")
    func explicitRouterKept() throws {
        let own = URLRouter(configuration: URLRouterConfiguration(appSchemes: ["own"]))
        let plugin = ActivitiesPlugin(publisher: RecordingActivityPublisher(), router: own)
        let system = try ActuateSystem.setup(
            group: LinkedShopFeature.self,
            dispatching: .isolated(scheduler: TestScheduler()),
            configuration: ActuateConfiguration(plugins: [plugin], routes: Self.bothKinds)
        )
        #expect(plugin.router === own)
        #expect(system.router !== own)
    }

    @Test("a system whose activities plugin has the system's router is released once nothing else holds it")
    func systemReleased() throws {
        weak var released: ActuateSystem?
        weak var releasedRouter: URLRouter?
        let plugin = ActivitiesPlugin(publisher: RecordingActivityPublisher())
        do {
            let system = try ActuateSystem.setup(
                group: LinkedShopFeature.self,
                dispatching: .isolated(scheduler: TestScheduler()),
                configuration: ActuateConfiguration(plugins: [plugin], routes: Self.bothKinds)
            )
            released = system
            releasedRouter = system.router
            #expect(plugin.router === system.router)
        }
        // The plugin held the router strongly, the router its session, the session's dispatcher the plugin: a
        // cycle that kept every system alive (LeakSanitizer found it).
        #expect(releasedRouter == nil)
        #expect(released == nil)
        #expect(plugin.router == nil)
    }
}
