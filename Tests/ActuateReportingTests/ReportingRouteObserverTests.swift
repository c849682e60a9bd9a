import ActuateReporting
import ActuateTesting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins

@Suite("Reporting routes and activities")
struct ReportingRouteObserverTests {
    @Test("opening a URL that a route performs records url_opened with its route and outcome, without the query")
    func performedURL() async throws {
        let testbed = try HookTestbed()
        _ = await testbed.system.open(url: URL(string: "shop://product/42?token=s3cret#top")!)

        let opened = try #require(try testbed.events(.urlOpened).first)
        #expect(opened.properties["url"] == "shop://product/42")
        #expect(opened.properties["result"] == "performed")
        #expect(opened.properties["outcome"] == "success")
        #expect(opened.properties["pattern"] == "product/$(id)")
        #expect(opened.properties["action"] == "Hook View Product")
        #expect(opened.properties["feature"] == "Hook Shop")
        #expect(opened.properties["session"] == "main")
        #expect(opened.properties["userInitiated"] == true)
        let stored = String(decoding: try JSONEncoder().encode(try testbed.events()), as: UTF8.self)
        #expect(!stored.contains("s3cret"))
        // The routed action's own analytics say how the user arrived.
        #expect(try testbed.events(.actionEnded).first?.properties["source"] == "openURL")
    }

    @Test(
        "every route result is recorded",
        arguments: [
            ("shop://product/-1", "performed", ["outcome": "failure", "error": "product -1 missing"]),
            ("shop://nowhere/at/all", "noMatch", [:]),
            ("https://elsewhere.example.com/product/1", "unsupportedScope", [:]),
            ("shop://product/forty-two", "badParameter", ["parameter": "id"]),
            ("shop://premium", "unavailable", ["pattern": "premium"]),
        ] as [(String, String, [String: JSONValue])]
    )
    func routeResults(url: String, result: String, details: [String: JSONValue]) async throws {
        let testbed = try HookTestbed()
        _ = await testbed.system.open(url: URL(string: url)!)
        let opened = try #require(try testbed.events(.urlOpened).first)
        #expect(opened.properties["result"] == .string(result))
        for (key, value) in details {
            #expect(opened.properties[key] == value, "\(key)")
        }
    }

    @Test("a URL that matches no route is recorded with its path, and no action runs")
    func noMatchingRoute() async throws {
        let testbed = try HookTestbed()
        let result = await testbed.system.open(url: URL(string: "shop://old-campaign/2019?utm=x")!)
        #expect(result.description == "no match")
        let events = try testbed.events()
        #expect(events.map(\.type) == ["url_opened"])
        #expect(events[0].properties["url"] == "shop://old-campaign/2019")
        #expect(events[0].properties["pattern"] == nil)
        #expect(events[0].properties["action"] == nil)
    }

    @Test("publishing and continuing an activity are recorded, without titles or user info")
    func activities() async throws {
        let testbed = try HookTestbed()
        await testbed.perform(HookShopFeature.viewProduct, 5)
        let published = try #require(testbed.publisher.current)
        #expect(published.title == "Product 5")

        _ = await testbed.activityRouter.continue(
            activityType: published.activityType,
            userInfo: published.userInfo,
            session: testbed.system.mainSession
        )
        _ = await testbed.activityRouter.continue(
            activityType: published.activityType,
            userInfo: [:],
            session: testbed.system.mainSession
        )
        _ = await testbed.activityRouter.continue(
            activityType: "com.example.gone",
            userInfo: ["id": "5"],
            session: testbed.system.mainSession
        )

        let publishedEvent = try #require(try testbed.events(.activityPublished).first)
        #expect(publishedEvent.properties["activityType"] == .string(published.activityType))
        #expect(publishedEvent.properties["action"] == "Hook View Product")
        #expect(publishedEvent.properties["feature"] == .string(HookShopFeature.identifier.description))
        #expect(publishedEvent.properties["eligibility"] == ["handoff", "search"])
        #expect(publishedEvent.properties.count == 4)

        let continued = try testbed.events(.activityContinued)
        #expect(continued.map { $0.properties["result"] } == ["performed", "badInput", "noMatch"])
        #expect(continued[0].properties["outcome"] == "success")
        #expect(continued[1].properties["error"] == "The activity's user info has no value for 'id'.")
        #expect(continued[2].properties["activityType"] == "com.example.gone")
        #expect(continued.allSatisfy { $0.properties["session"] == "main" })
        // The continued action's analytics say it arrived through an activity.
        let sources = try testbed.events(.actionEnded).map { $0.properties["source"] }
        #expect(sources == ["application", "continueActivity"])
    }

    @Test("while consent is denied routes and activities record nothing, unless the link forces tracking")
    func consentDenied() async throws {
        let testbed = try HookTestbed(consent: .denied)
        _ = await testbed.system.open(url: URL(string: "shop://product/1")!)
        _ = await testbed.system.open(url: URL(string: "shop://nowhere")!)
        _ = await testbed.activityRouter.continue(
            activityType: "com.example.gone",
            userInfo: [:],
            session: testbed.system.mainSession
        )
        await testbed.perform(HookShopFeature.viewProduct, 2)
        #expect(try testbed.store.count() == 0)

        _ = await testbed.system.open(url: URL(string: "shop://nowhere?xnpe_force_track=true")!)
        let events = try testbed.events()
        #expect(events.map(\.type) == ["url_opened"])
        #expect(events[0].isTrackingForced)
        #expect(events[0].properties["url"] == "shop://nowhere")
    }
}
