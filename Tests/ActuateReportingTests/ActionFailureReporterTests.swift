import ActuateReporting
import ActuateTesting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins

@Suite("Action failure reporter and timeline excerpt")
struct ActionFailureReporterTests {
    private static func declined(_ amount: Int) -> HookPayment {
        HookPayment(card: Redacted(HookSecrets.card), amount: amount, declines: true)
    }

    @Test("a failed action is recorded as an error event from appAction, with its redacted message")
    func failureEvent() async throws {
        let testbed = try HookTestbed()
        await testbed.perform(HookShopFeature.pay, Self.declined(30))
        await testbed.perform(HookShopFeature.sync, .noInput)

        let errors = try testbed.events(.error)
        try #require(errors.count == 2)
        #expect(errors[0].contentReference == ContentReference(source: .appAction, id: "pay", name: "Hook Pay"))
        #expect(errors[0].properties["message"] == "card declined")
        #expect(errors[0].properties["feature"] == .string(HookShopFeature.identifier.description))
        #expect(errors[0].properties["session"] == "main")
        #expect(errors[0].properties["source"] == "application")
        #expect(errors[0].properties["featureTerminated"] == false)
        #expect(errors[0].properties["timeline"] == nil)
        let syncID = "\(HookShopFeature.identifier)/HookSyncAction"
        #expect(errors[1].contentReference?.id == syncID)
        #expect(errors[1].properties["message"] == "product 0 missing")
        #expect(errors[0].properties["requestId"] != errors[1].properties["requestId"])
    }

    @Test("successes and cancellations record no error event")
    func noErrorForSuccessOrCancellation() async throws {
        let testbed = try HookTestbed()
        await testbed.perform(HookShopFeature.viewProduct, 3)
        await testbed.perform(HookMiscFeature.cancelled, .noInput)
        #expect(try testbed.events(.error).isEmpty)
    }

    @Test("with an excerpt policy the last entries of the failing action's session travel with the error")
    func excerpt() async throws {
        let testbed = try HookTestbed(excerpt: TimelineExcerptPolicy(maxEntries: 3))
        let other = testbed.system.session(named: "background")
        await testbed.perform(HookShopFeature.pay, Self.declined(1))
        await testbed.perform(HookShopFeature.viewProduct, 1)
        await other.perform(HookShopFeature.viewProduct, input: 99, presenter: ())
        await testbed.perform(HookShopFeature.viewProduct, 2)
        await testbed.perform(HookShopFeature.pay, Self.declined(2))

        let error = try #require(try testbed.events(.error).last)
        guard case .array(let entries) = try #require(error.properties["timeline"]) else {
            Issue.record("the timeline is not an array")
            return
        }
        #expect(entries.map { $0.object?["input"] } == ["1", "2", "amount 2, card <redacted>"])
        #expect(entries.map { $0.object?["outcome"] } == ["success", "success", "failure"])
        #expect(entries.last?.object?["requestId"] == error.properties["requestId"])
        #expect(entries.allSatisfy { $0.object?["source"] == "application" && $0.object?["date"] != nil })
        #expect(error.properties["timelineOmitted"] == 0)
        let stored = String(decoding: try JSONEncoder().encode(try testbed.events()), as: UTF8.self)
        #expect(!stored.contains(HookSecrets.card))
    }

    @Test("the excerpt keeps the newest entries that fit its byte cap and counts the rest", arguments: [0, 300, 700])
    func byteCap(maxBytes: Int) async throws {
        let testbed = try HookTestbed(excerpt: TimelineExcerptPolicy(maxEntries: 10, maxBytes: maxBytes))
        for product in 1...5 { await testbed.perform(HookShopFeature.viewProduct, product) }
        await testbed.perform(HookShopFeature.sync, .noInput)

        let error = try #require(try testbed.events(.error).last)
        let timeline = try #require(error.properties["timeline"])
        guard case .array(let entries) = timeline else {
            Issue.record("the timeline is not an array")
            return
        }
        let bytes = try JSONEncoder().encode(timeline).count
        #expect(maxBytes == 0 ? entries.isEmpty : (1..<6).contains(entries.count))
        #expect(bytes <= max(maxBytes, 2))
        #expect(error.properties["timelineOmitted"] == .number(Double(6 - entries.count)))
        // Whatever fits is the newest, ending with the failing action itself.
        if let last = entries.last { #expect(last.object?["action"] == "Hook Sync") }
        let inputs = entries.dropLast().compactMap { $0.object?["input"]?.stringValue }
        #expect(inputs == Array(["1", "2", "3", "4", "5"].suffix(inputs.count)))
        // One more entry would not have fitted.
        let uncapped = TimelineExcerptPolicy(maxEntries: 10, maxBytes: .max)
        let full = try HookTestbed(excerpt: uncapped)
        for product in 1...5 { await full.perform(HookShopFeature.viewProduct, product) }
        await full.perform(HookShopFeature.sync, .noInput)
        guard case .array(let all) = try #require(try full.events(.error).last?.properties["timeline"]) else {
            Issue.record("the timeline is not an array")
            return
        }
        #expect(all.count == 6)
        if entries.count < all.count {
            let oneMore = JSONValue.array(Array(all.suffix(entries.count + 1)))
            #expect(try JSONEncoder().encode(oneMore).count > maxBytes)
        }
    }

    @Test("nothing is recorded while consent is denied, or when failures are not recorded")
    func deniedOrOff() async throws {
        let denied = try HookTestbed(consent: .denied, excerpt: TimelineExcerptPolicy())
        await denied.perform(HookShopFeature.sync, .noInput)
        #expect(try denied.store.count() == 0)

        let store = MemoryEventStore()
        let reporter = Reporter(
            store: store,
            delivery: nil,
            scheduler: TestScheduler(),
            identity: Identity(storage: MemoryIdentityStorage())
        )
        let system = try ActuateSystem.setup(
            group: HookApp.self,
            dispatching: .isolated(scheduler: TestScheduler()),
            reporting: ReportingSetup(reporter: reporter, recordsFailures: false)
        )
        await system.mainSession.perform(HookShopFeature.sync, input: .noInput, presenter: ())
        #expect(try store.fetch(count: 100, maxBytes: .max).filter { $0.type == "error" }.isEmpty)
    }
}

extension JSONValue {
    /// The members, if this is an object.
    fileprivate var object: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }
}
