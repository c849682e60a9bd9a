import ActuatePersonalization
import ActuateReporting
import ActuateTesting
import Foundation
import Synchronization
import Testing

@Suite("Content event vocabulary")
struct ContentEventVocabularyTests {
    @Test("content statuses use Personyze's wire names")
    func statusWireNames() {
        #expect(
            ContentStatus.allCases.map(\.rawValue) == ["executed", "target", "close", "product", "article", "error"]
        )
        #expect(ContentStatus.allCases.map(\.eventType.rawValue) == ContentStatus.allCases.map(\.rawValue))
    }

    @Test("session, purchase and custom event types have stable names")
    func eventTypeNames() throws {
        #expect(ReportEventType.sessionStart.rawValue == "session_start")
        #expect(ReportEventType.sessionEnd.rawValue == "session_end")
        #expect(ReportEventType.purchase.rawValue == "purchase")
        #expect(ReportEventType.target.contentStatus == .target)
        #expect(ReportEventType.sessionStart.contentStatus == nil)
        #expect(ReportEventType.sessionEnd.isReserved)
        #expect(!ReportEventType("newsletter_signup").isReserved)

        let data = try JSONEncoder().encode(["type": ReportEventType("newsletter_signup")])
        #expect(String(decoding: data, as: UTF8.self) == #"{"type":"newsletter_signup"}"#)
        let decoded = try JSONDecoder().decode([String: ReportEventType].self, from: data)
        #expect(decoded["type"] == "newsletter_signup")
    }

    @Test("an unknown status string gives an error, not a crash")
    func unknownStatus() throws {
        #expect(throws: ReportingError.unknownContentStatus("dont-show")) {
            try ContentStatus(parsing: "dont-show")
        }
        #expect(try ContentStatus(parsing: "article") == .article)
        let description = ReportingError.unknownContentStatus("dont-show").description
        #expect(description.contains("dont-show") && description.contains("executed, target"))

        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([ContentStatus].self, from: Data(#"["target","bogus"]"#.utf8))
        }
        let event = ReportEvent(type: "bogus", timestamp: .distantPast, sessionID: "s", anonymousID: "a")
        #expect(event.contentStatus == nil)
    }

    @Test(
        "string arguments become typed content events",
        arguments: [
            (ContentStatus.executed, "", ContentEvent.executed),
            (.target, "", .target(href: nil)),
            (.target, " https://shop.example ", .target(href: "https://shop.example")),
            (.close, "", .close(dontShowSessions: 0)),
            (.close, "3", .close(dontShowSessions: 3)),
            (.close, "-2", .close(dontShowSessions: -2)),
            (.product, " sku-1 ", .product(productID: "sku-1")),
            (.article, "a-9", .article(articleID: "a-9")),
            (.error, "image failed", .error(message: "image failed")),
        ]
    )
    func parsesArguments(status: ContentStatus, argument: String, expected: ContentEvent) throws {
        let event = try ContentEvent(status: status, argument: argument)
        #expect(event == expected)
        #expect(event.status == status)
    }

    @Test(
        "bad arguments are refused with the status and reason",
        arguments: [(ContentStatus.close, "two"), (.close, "1.5"), (.product, ""), (.article, "   ")]
    )
    func refusesBadArguments(status: ContentStatus, argument: String) {
        #expect {
            try ContentEvent(status: status, argument: argument)
        } throws: { error in
            guard case ReportingError.invalidContentArgument(let failing, let given, _) = error else { return false }
            return failing == status && given == argument
        }
    }

    @Test("a content status with a bad argument is reported by the reporter, not stored")
    func badArgument() throws {
        let store = MemoryEventStore()
        let errors = Mutex<[ReportingError]>([])
        let reporter = Reporter(
            store: store,
            delivery: nil,
            scheduler: TestScheduler(),
            identity: Identity(storage: MemoryIdentityStorage()),
            configuration: ReporterConfiguration(onError: { error in errors.withLock { $0.append(error) } })
        )
        let banner = ContentReference.contentAction(id: 7, name: "Summer banner")
        let refusal = ReportingError.invalidContentArgument(
            status: .close,
            argument: "two",
            reason: "not a whole number"
        )

        #expect(reporter.record(.close, for: banner, argument: "two") == .failed(refusal))
        #expect(try store.count() == 0)
        #expect(errors.withLock { $0 } == [refusal])

        let good = reporter.record(.close, for: banner, argument: "-4")
        #expect(good.event?.properties["dontShowSessions"] == 0)
    }

    @Test("close turns negative session counts into 0")
    func closeClampsNegatives() {
        #expect(ContentEvent.close(dontShowSessions: -5).properties == ["dontShowSessions": 0])
        #expect(ContentEvent.close(dontShowSessions: 2).properties == ["dontShowSessions": 2])
    }

    @Test("each status carries its argument under its documented key")
    func argumentProperties() {
        #expect(ContentEvent.executed.properties.isEmpty)
        #expect(ContentEvent.product(productID: "sku-1").properties == ["productId": "sku-1"])
        #expect(ContentEvent.article(articleID: "a-9").properties == ["articleId": "a-9"])
        #expect(ContentEvent.error(message: "boom").properties == ["message": "boom"])
        #expect(ContentEvent.target(href: "x").properties == ["href": "x"])
    }

    @Test(
        "content actions, campaigns and content blocks all fill the same content properties",
        arguments: [
            (ContentReference.contentAction(id: 7, name: "Banner"), "action", "7"),
            (.campaign(id: "cmp-1", name: "Spring"), "campaign", "cmp-1"),
            (.contentBlock(id: "block-3", name: "Hero"), "contentBlock", "block-3"),
        ]
    )
    func contentProperties(content: ContentReference, source: String, id: String) {
        let properties = EventProperties.content(.product(productID: "sku-1"), for: content)
        #expect(properties["contentSource"]?.stringValue == source)
        #expect(properties["actionId"]?.stringValue == id)
        #expect(properties["actionName"]?.stringValue == content.name)
        #expect(properties["productId"] == "sku-1")

        let event = ReportEvent(
            type: "product",
            timestamp: .distantPast,
            sessionID: "s",
            anonymousID: "a",
            properties: properties
        )
        #expect(event.contentReference == content)
        #expect(event.contentStatus == .product)
    }

    @Test("a reference without a name leaves the name out")
    func referenceWithoutName() {
        let properties = EventProperties.content(.campaign(id: "c"))
        #expect(properties["actionName"] == nil)
        #expect(ContentReference.campaign(id: "c").description == "campaign:c")
        #expect(ContentReference.contentAction(id: 1, name: "A").description == #"action:1 "A""#)
    }

    @Test("purchase events carry product ids, as an array or a single id, without duplicates")
    func purchaseProducts() {
        var properties = EventProperties.purchase(productIDs: ["sku-1", "sku-2", "sku-1", ""])
        properties["productId"] = "sku-3"
        let event = ReportEvent(
            type: "purchase",
            timestamp: .distantPast,
            sessionID: "s",
            anonymousID: "a",
            properties: properties
        )
        #expect(event.purchasedProductIDs == ["sku-1", "sku-2", "sku-3"])
        #expect(event.eventType == .purchase)
    }
}
