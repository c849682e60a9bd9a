import ActuateReporting
import ActuateTesting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins

@Suite("Reporting analytics provider")
struct ReportingAnalyticsProviderTests {
    @Test("each analytics event becomes action_began or action_ended with the documented properties")
    func beginAndEnd() async throws {
        let testbed = try HookTestbed()
        await testbed.perform(HookShopFeature.viewProduct, 7)

        let began = try #require(try testbed.events(.actionBegan).first)
        let ended = try #require(try testbed.events(.actionEnded).first)
        for event in [began, ended] {
            #expect(event.properties["analyticsId"] == "view_product")
            #expect(event.properties["action"] == "Hook View Product")
            #expect(event.properties["feature"] == .string(HookShopFeature.identifier.description))
            #expect(event.properties["session"] == "main")
            #expect(event.properties["source"] == "application")
            #expect(event.properties["userInitiated"] == true)
            #expect(event.properties["input"] == "7")
            #expect(event.properties["attributes"] == ["product": 7])
        }
        #expect(began.properties["requestId"] == ended.properties["requestId"])
        #expect(began.properties["outcome"] == nil)
        #expect(began.properties["durationSeconds"] == nil)
        #expect(ended.properties["outcome"] == "success")
        #expect(ended.properties["error"] == nil)
        #expect(ended.properties["featureTerminated"] == false)
        #expect(ended.properties["durationSeconds"] == 0)
    }

    @Test("a redacted attribute and a NaN never reach the store; the failure is its logging description")
    func redactedAttribute() async throws {
        let testbed = try HookTestbed()
        let payment = HookPayment(card: Redacted(HookSecrets.card), amount: 12, declines: true)
        await testbed.perform(HookShopFeature.pay, payment)

        let ended = try #require(try testbed.events(.actionEnded).first)
        #expect(ended.properties["attributes"] == ["amount": 12, "currency": "EUR"])
        #expect(ended.properties["input"] == "amount 12, card <redacted>")
        #expect(ended.properties["outcome"] == "failure")
        #expect(ended.properties["error"] == "card declined")
        let stored = String(decoding: try JSONEncoder().encode(try testbed.events()), as: UTF8.self)
        #expect(!stored.contains(HookSecrets.card))
    }

    @Test("attributes map to JSON by kind")
    func attributeMapping() throws {
        let store = MemoryEventStore()
        let scheduler = TestScheduler()
        let reporter = Reporter(
            store: store,
            delivery: nil,
            scheduler: scheduler,
            identity: Identity(storage: MemoryIdentityStorage())
        )
        let provider = ReportingAnalyticsProvider(reporter: reporter)
        provider.track(
            AnalyticsEvent(
                phase: .ended,
                analyticsID: "search",
                requestID: 9,
                actionName: "Search",
                featurePath: FeaturePath(["App", "Search"]),
                sessionName: "main",
                source: .continueActivity(type: "com.example.search"),
                userInitiated: false,
                inputDescription: "socks",
                attributes: [
                    "text": "socks", "count": 3, "score": 0.5, "exact": false, "tags": .strings(["a", "b"]),
                    "at": .date(Date(timeIntervalSince1970: 0)), "infinite": .double(.infinity), "secret": .redacted,
                ],
                date: scheduler.now(),
                outcome: .cancelled,
                terminatedFeature: true,
                duration: 1.5
            )
        )
        let event = try #require(try store.fetch(count: 10, maxBytes: .max).last)
        #expect(event.type == "action_ended")
        #expect(
            event.properties["attributes"]
                == [
                    "text": "socks", "count": 3, "score": 0.5, "exact": false, "tags": ["a", "b"],
                    "at": "1970-01-01T00:00:00Z",
                ]
        )
        #expect(event.properties["source"] == "continueActivity")
        #expect(event.properties["activityType"] == "com.example.search")
        #expect(event.properties["feature"] == "App/Search")
        #expect(event.properties["requestId"] == 9)
        #expect(event.properties["userInitiated"] == false)
        #expect(event.properties["outcome"] == "cancelled")
        #expect(event.properties["featureTerminated"] == true)
        #expect(event.properties["durationSeconds"] == 1.5)
    }

    @Test("other providers given to the setup receive the same events")
    func otherProviders() async throws {
        let recording = RecordingAnalyticsProvider()
        let testbed = try HookTestbed(analyticsProviders: [recording])
        await testbed.perform(HookShopFeature.viewProduct, 1)
        #expect(recording.events.map(\.phase) == [.began, .ended])
        #expect(try testbed.events(.actionEnded).count == 1)
    }

    @Test("while consent is denied nothing is recorded, unless the action's analytics force tracking")
    func consentDenied() async throws {
        let testbed = try HookTestbed(consent: .denied)
        await testbed.perform(HookShopFeature.viewProduct, 1)
        await testbed.perform(HookShopFeature.pay, HookPayment(card: Redacted("1"), amount: 1, declines: true))
        #expect(try testbed.store.count() == 0)
        #expect(testbed.reporter.suppressedEventCount > 0)

        await testbed.perform(HookShopFeature.consentPrompt, .noInput)
        let events = try testbed.events()
        #expect(events.map(\.type) == ["action_began", "action_ended"])
        #expect(events.allSatisfy { $0.isTrackingForced })
        #expect(events.allSatisfy { $0.properties["attributes"] == ["screen": "onboarding"] })
    }
}
