import ActuateTesting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateReporting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Segment batch encoding")
struct SegmentEncodingTests {
    static let sentAt = Date(timeIntervalSince1970: 1_767_225_600.25)

    /// Three track events of different types and two identify events, with and without a user id.
    static let events: [ReportEvent] = [
        ReportEvent(
            type: "executed",
            timestamp: Date(timeIntervalSince1970: 1_767_225_500.125),
            sessionID: "session-1",
            anonymousID: "anon-1",
            properties: ["contentSource": "personyze", "actionId": "42", "actionName": "Banner \"A\""]
        ),
        ReportEvent(
            type: "target",
            timestamp: Date(timeIntervalSince1970: 1_767_225_501),
            sessionID: "session-1",
            anonymousID: "anon-1",
            userID: "user-7",
            properties: ["actionId": "42", "href": "https://shop.example.com/sale?x=1&y=é", "rank": 2.5]
        ),
        ReportEvent(
            type: "purchase",
            timestamp: Date(timeIntervalSince1970: 1_767_225_502.875),
            sessionID: "session-2",
            anonymousID: "anon-1",
            userID: "user-7",
            properties: ["productIds": ["sku-1", "sku-2"], "nested": ["ok": true, "none": nil]]
        ),
        ReportEvent(
            type: "identify",
            timestamp: Date(timeIntervalSince1970: 1_767_225_503),
            sessionID: "session-2",
            anonymousID: "anon-1",
            userID: "user-7",
            properties: ["plan": "premium", "visits": 12]
        ),
        ReportEvent(
            type: "identify",
            timestamp: Date(timeIntervalSince1970: 1_767_225_504.5),
            sessionID: "session-3",
            anonymousID: "anon-2",
            properties: [:]
        ),
    ]

    static func iso(_ date: Date) -> JSONValue {
        .string(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }

    /// The message each event must become, field by field.
    static func expectedMessage(for event: ReportEvent) -> [String: JSONValue] {
        let isIdentify = event.type == "identify"
        var message: [String: JSONValue] = [
            "type": .string(isIdentify ? "identify" : "track"),
            "messageId": .string(event.id.uuidString),
            "anonymousId": .string(event.anonymousID),
            "timestamp": iso(event.timestamp),
            isIdentify ? "traits" : "properties": .object(event.properties),
            "context": ["library": ["name": "Actuate", "version": "1"], "sessionId": .string(event.sessionID)],
            "sentAt": iso(sentAt),
        ]
        if !isIdentify { message["event"] = .string(event.type) }
        if let userID = event.userID { message["userId"] = .string(userID) }
        return message
    }

    @Test("each event arrives as one track or identify message, every field as mapped, the write key as Basic user")
    func loopbackFields() async throws {
        try await TestCollector.with { collector in
            let transport = try HTTPEventTransport(
                endpoint: collector.batchURL,
                apiKey: "write-key-1",
                encoding: .segment
            )
            #expect(transport.encoding == .segment)
            let response = await transport.send(EventBatch(events: Self.events, sentAt: Self.sentAt))
            guard case .http(let http) = response else {
                Issue.record("expected an HTTP response, got \(response)")
                return
            }
            #expect(http.statusCode == 200)

            let received = try await collector.events()
            #expect(received.count == Self.events.count)
            for (message, event) in zip(received, Self.events) {
                #expect(message == Self.expectedMessage(for: event), "\(event.type) \(event.id)")
            }
            let stats = try await collector.stats()
            #expect(stats.lastAuthorization == "Basic " + Data("write-key-1:".utf8).base64EncodedString())
            #expect(stats.lastSentAt == "2026-01-01T00:00:00.250Z")
            #expect(stats.ids == Self.events.map(\.id.uuidString))
            #expect(stats.malformed == 0)
        }
    }

    @Test("a retried batch is deduplicated by messageId on the receiving side")
    func retriesDeduplicate() async throws {
        try await TestCollector.with(script: ["500"]) { collector in
            let transport = try HTTPEventTransport(endpoint: collector.batchURL, apiKey: "k", encoding: .segment)
            let store = try makeStore(Self.events)
            let scheduler = TestScheduler()
            let uploader = EventUploader(
                store: store,
                transport: transport,
                scheduler: scheduler,
                configuration: EventUploader.Configuration(flushPolicies: [.manual], random: { 0.5 })
            )
            await uploader.flushNow()
            scheduler.advance(by: .milliseconds(500))
            await uploader.waitUntilIdle()
            await uploader.flushNow()
            // The same events sent again, as after a lost acknowledgement.
            _ = await transport.send(EventBatch(events: Self.events, sentAt: Self.sentAt))
            let stats = try await collector.stats()
            #expect(stats.unique == Self.events.count)
            #expect(stats.duplicates == Self.events.count)
            #expect(try store.count() == 0)
        }
    }

    @Test("the collector refuses Segment messages missing what the API requires")
    func collectorValidatesMessages() async throws {
        try await TestCollector.with { collector in
            let bodies = [
                #"{"batch":[{"type":"track","messageId":"m1","anonymousId":"a","timestamp":"t"}]}"#,
                #"{"batch":[{"type":"track","event":"e","messageId":"m1","timestamp":"t"}]}"#,
                #"{"batch":[{"type":"fly","event":"e","messageId":"m1","anonymousId":"a","timestamp":"t"}]}"#,
            ]
            for body in bodies {
                var request = URLRequest(url: collector.batchURL)
                request.httpMethod = "POST"
                request.httpBody = Data(body.utf8)
                let (_, response) = try await URLSession.shared.data(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == 400, "\(body)")
            }
            let stats = try await collector.stats()
            #expect(stats.malformed == bodies.count)
            #expect(stats.unique == 0)
        }
    }

    @Test("the README's Segment snippet builds a Segment transport, and an identify event is recorded")
    func readmeSnippet() throws {
        let store = MemoryEventStore()
        let segmentWriteKey = "write-key-readme"
        let reporter = Reporter(
            store: store,
            delivery: nil,
            scheduler: TestScheduler(),
            identity: Identity(storage: MemoryIdentityStorage())
        )
        // The README's snippet, unchanged. Nothing is sent: the uploader is released before its first interval.
        let segment = try HTTPEventTransport(
            endpoint: URL(string: "https://api.segment.io/v1/batch")!,
            apiKey: segmentWriteKey,  // the source's write key, sent as the HTTP Basic user with an empty password
            encoding: .segment
        )
        let segmentUploader = EventUploader(store: store, transport: segment, scheduler: SystemScheduler.shared)
        reporter.record(type: .identify, properties: ["plan": "premium"])  // becomes an identify message
        // End of the snippet.
        #expect(segment.encoding == .segment)
        #expect(segmentUploader.status.requestsSent == 0)
        let identify = try #require(try store.fetch(count: 10, maxBytes: .max).last)
        #expect(identify.type == "identify")
        #expect(identify.properties == ["plan": "premium"])
        let body = String(
            decoding: EventBatch(events: [identify], sentAt: Self.sentAt).encoded(as: .segment),
            as: UTF8.self
        )
        #expect(body.contains(#""type":"identify""#))
        #expect(body.contains(#""traits":{"plan":"premium"}"#))
    }

    @Test("a blank write key is refused like a blank Bearer key")
    func blankKeyRefused() {
        let url = URL(string: "https://api.segment.io/v1/batch")!
        for key in [" ", "\t\n", "   "] {
            for encoding in EventBatchEncoding.allCases {
                #expect(throws: HTTPEventTransportError.invalidAPIKey(reason: "it is blank: only whitespace")) {
                    try HTTPEventTransport(endpoint: url, apiKey: key, encoding: encoding)
                }
            }
        }
    }
}
