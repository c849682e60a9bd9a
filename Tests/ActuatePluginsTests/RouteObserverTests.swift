import ActuateTesting
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuatePlugins

/// Records what a router tells its observers.
private final class RecordingRouteObserver: URLRouteObserver, ActivityContinuationObserver {
    private let recorded = Mutex<(openings: [URLOpening], continuations: [ActivityContinuation])>(([], []))

    var openings: [URLOpening] { recorded.withLock { $0.openings } }
    var continuations: [ActivityContinuation] { recorded.withLock { $0.continuations } }

    func urlRouter(_ router: URLRouter, didOpen opening: URLOpening) {
        recorded.withLock { $0.openings.append(opening) }
    }

    func activityRouter(_ router: ActivityRouter, didContinue continuation: ActivityContinuation) {
        recorded.withLock { $0.continuations.append(continuation) }
    }
}

@Suite("Route and activity observers")
struct RouteObserverTests {
    private static func makeRouter() throws -> (URLRouter, ActionSession) {
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
        let session = ActionSession(named: "links", dispatcher: dispatcher)
        let router = URLRouter(
            configuration: URLRouterConfiguration(appSchemes: ["shop"], universalLinkHosts: ["shop.example.com"]),
            defaultSession: session
        )
        try router.register(ShopFeature.self)
        return (router, session)
    }

    @Test("a URL router tells its observers every URL it opens, with the route and the result")
    func urlOpenings() async throws {
        let (router, _) = try Self.makeRouter()
        let observer = RecordingRouteObserver()
        router.add(observer: observer)

        _ = await router.open(url: URL(string: "shop://product/42?ref=mail")!)
        _ = await router.open(url: URL(string: "shop://nowhere/at/all")!)
        _ = await router.open(url: URL(string: "other://product/42")!)
        _ = await router.open(url: URL(string: "shop://product/forty-two")!, userInitiated: false)

        let openings = observer.openings
        try #require(openings.count == 4)
        #expect(openings[0].url.absoluteString == "shop://product/42?ref=mail")
        #expect(openings[0].match?.pattern == "product/$(id)")
        #expect(openings[0].match?.actionName == "View Product")
        #expect(openings[0].result.isSuccess)
        #expect(openings[0].sessionName == "links")
        #expect(openings[0].userInitiated)
        #expect(openings[1].match == nil)
        #expect(openings[1].result.description == "no match")
        #expect(openings[2].match == nil)
        #expect(openings[2].result.description == "unsupported scope")
        #expect(openings[3].match?.pattern == "product/$(id)")
        guard case .badParameter(let name, _) = openings[3].result else {
            Issue.record("expected a bad parameter, got \(openings[3].result)")
            return
        }
        #expect(name == "id")
        #expect(!openings[3].userInitiated)
    }

    @Test("a removed URL observer hears nothing more")
    func removedURLObserver() async throws {
        let (router, _) = try Self.makeRouter()
        let observer = RecordingRouteObserver()
        router.add(observer: observer)
        _ = await router.open(url: URL(string: "shop://product/1")!)
        router.remove(observer: observer)
        _ = await router.open(url: URL(string: "shop://product/2")!)
        #expect(observer.openings.count == 1)
    }

    @Test("an activity router tells its observers every continuation, with the result but not the user info")
    func activityContinuations() async throws {
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
        let session = ActionSession(named: "handoff", dispatcher: dispatcher)
        let router = ActivityRouter(activityTypePrefix: "com.example.shop")
        let type = router.register(ShopFeature.viewProduct) { userInfo in
            guard let id = userInfo["id"].flatMap(Int.init) else {
                throw ActivityContinuationError.missingUserInfoKey("id")
            }
            return id
        }
        let observer = RecordingRouteObserver()
        router.add(observer: observer)

        _ = await router.continue(activityType: type, userInfo: ["id": "7"], session: session)
        _ = await router.continue(activityType: type, userInfo: [:], session: session)
        _ = await router.continue(activityType: "com.example.unknown", userInfo: [:], session: session)
        router.remove(observer: observer)
        _ = await router.continue(activityType: type, userInfo: ["id": "8"], session: session)

        let continuations = observer.continuations
        #expect(continuations.map(\.activityType) == [type, type, "com.example.unknown"])
        #expect(continuations.map(\.sessionName) == ["handoff", "handoff", "handoff"])
        #expect(
            continuations.map(\.result.description) == [
                "performed", "bad input: The activity's user info has no value for 'id'.", "no match",
            ]
        )
    }

    @Test("a Redacted value becomes a redacted attribute; other loggable values their description")
    func loggableAttributes() {
        #expect(AnalyticsValue.loggable(Redacted("4111 1111 1111 1111")) == .redacted)
        #expect(AnalyticsValue.loggable(Optional(Redacted(12))) == .redacted)
        #expect(AnalyticsValue.loggable(42) == .string("42"))
        #expect(AnalyticsValue.redacted.description == "<redacted>")
    }
}
