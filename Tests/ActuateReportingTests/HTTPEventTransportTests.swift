import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateReporting

private let secretKey = "sk_live_4f9c2e7b1d8a6035"

private func batch(_ events: [ReportEvent]) -> EventBatch {
    EventBatch(events: events, sentAt: Date(timeIntervalSince1970: 1_767_225_600.25))
}

@Suite("HTTPEventTransport")
struct HTTPEventTransportTests {
    @Test(
        "https anywhere and http on loopback hosts are accepted",
        arguments: [
            "https://collector.example.com/v1/batch", "http://127.0.0.1:8080/v1/batch", "http://127.1.2.3/x",
            "http://localhost:9000/v1/batch", "http://LOCALHOST./x", "http://[::1]:9000/v1/batch",
        ]
    )
    func acceptedEndpoints(text: String) throws {
        let url = try #require(URL(string: text))
        let transport = try HTTPEventTransport(endpoint: url)
        #expect(transport.endpoint == url)
    }

    @Test(
        "plain http to a non-loopback host is refused with a clear error",
        arguments: [
            "http://collector.example.com/v1/batch", "http://10.0.0.1/x", "http://127.0.0.1.evil.com/x",
            "http://localhost.evil.com/x", "http://128.0.0.1/x", "http://127.0.0.256/x", "http://[::2]/x",
        ]
    )
    func insecureEndpoints(text: String) throws {
        let url = try #require(URL(string: text))
        let error = #expect(throws: HTTPEventTransportError.self) {
            try HTTPEventTransport(endpoint: url, apiKey: secretKey)
        }
        guard case .insecureEndpoint = error else {
            Issue.record("expected insecureEndpoint, got \(String(describing: error))")
            return
        }
        let message = String(describing: error)
        #expect(message.contains("plain HTTP"))
        #expect(message.contains("https"))
        #expect(!message.contains(secretKey))
    }

    @Test("other schemes, hostless URLs and bad keys are refused")
    func otherBadInput() throws {
        #expect(throws: HTTPEventTransportError.unsupportedScheme("ftp://example.com/x")) {
            try HTTPEventTransport(endpoint: URL(string: "ftp://example.com/x")!)
        }
        #expect(throws: HTTPEventTransportError.missingHost("file:///tmp/x")) {
            try HTTPEventTransport(endpoint: URL(fileURLWithPath: "/tmp/x"))
        }
        let url = URL(string: "https://example.com/v1/batch")!
        #expect(throws: HTTPEventTransportError.invalidAPIKey(reason: "it is empty")) {
            try HTTPEventTransport(endpoint: url, apiKey: "")
        }
        let injected = "abc\r\nX-Evil: 1"
        let error = #expect(throws: HTTPEventTransportError.self) {
            try HTTPEventTransport(endpoint: url, apiKey: injected)
        }
        #expect(!String(describing: error).contains("abc"))
    }

    @Test("descriptions, mirrors and errors never contain the API key or URL credentials")
    func keyNeverShown() async throws {
        let transport = try HTTPEventTransport(
            endpoint: URL(string: "https://user:hunter2@collector.example.com/v1/batch")!,
            apiKey: secretKey,
            timeout: .seconds(5)
        )
        var dumped = ""
        dump(transport, to: &dumped)
        let texts = [
            transport.description, String(describing: transport), String(reflecting: transport), dumped,
            "\(transport)",
        ]
        for text in texts {
            #expect(!text.contains(secretKey))
            #expect(!text.contains("hunter2"))
        }
        #expect(transport.description.contains("apiKey: set"))

        // A failed request's description must not contain the key either.
        let closed = try await TestCollector.start()
        let port = closed.port
        await closed.shutdown()
        let unreachable = try HTTPEventTransport(
            endpoint: URL(string: "http://127.0.0.1:\(port)/v1/batch")!,
            apiKey: secretKey,
            timeout: .seconds(5)
        )
        let response = await unreachable.send(batch(makeEvents(1)))
        guard case .failed(let failure) = response else {
            Issue.record("expected a connection failure, got \(response)")
            return
        }
        #expect(failure.kind == .cannotConnect)
        #expect(!String(describing: failure).contains(secretKey))
        #expect(!String(describing: response).contains(secretKey))
    }

    @Test("posts the batch as JSON with the key in a Bearer header, and returns the collector's answer")
    func postsToCollector() async throws {
        try await TestCollector.with(script: ["503 Retry-After: 7"]) { collector in
            let transport = try HTTPEventTransport(
                endpoint: collector.batchURL,
                apiKey: secretKey,
                timeout: .seconds(10)
            )
            let events = makeEvents(3)

            let throttled = await transport.send(batch(events))
            guard case .http(let first) = throttled else {
                Issue.record("expected an HTTP response, got \(throttled)")
                return
            }
            #expect(first.statusCode == 503)
            #expect(first.value(forHeader: "retry-after") == "7")

            let accepted = await transport.send(batch(events))
            guard case .http(let second) = accepted else {
                Issue.record("expected an HTTP response, got \(accepted)")
                return
            }
            #expect(second.statusCode == 200)

            let stats = try await collector.stats()
            #expect(stats.requests == 2)
            #expect(stats.ids == events.map(\.id.uuidString))
            #expect(stats.lastAuthorization == "Bearer \(secretKey)")
            #expect(stats.lastContentType == "application/json")
            #expect(stats.lastSentAt == "2026-01-01T00:00:00.250Z")
            #expect(stats.malformed == 0)
        }
    }

    @Test(
        "a reused connection dropped without an answer is resent whole on a fresh one: no request arrives bodiless"
    )
    func dropOnReusedConnection() async throws {
        try await TestCollector.with(script: ["200", "drop", "200", "drop", "200"]) { collector in
            // A timeout far beyond the test's other waits: a resend without its body would end only at this timeout.
            let transport = try HTTPEventTransport(endpoint: collector.batchURL, apiKey: nil, timeout: .seconds(20))
            var answers: [TransportResponse] = []
            var sent: [[ReportEvent]] = []
            for _ in 0..<3 {
                let events = makeEvents(2)
                sent.append(events)
                answers.append(await transport.send(batch(events)))
            }
            #expect(answers.map(\.statusCode) == [200, 200, 200])

            let stats = try await collector.stats()
            // libcurl resends a request whose reused connection closed without an answer, on a fresh connection. The
            // client hands it the body again, so the resend is whole: before, it arrived with its Content-Length and
            // no body (a strict collector answers 400).
            #expect(stats.bodiless == 0)
            #expect(stats.malformed == 0)
            #expect(stats.log.map(\.action) == ["status", "drop", "status", "drop", "status"])
            #expect(stats.log.allSatisfy { ($0.bytes ?? 0) > 0 })
            #expect(stats.requests == 5)
            #expect(stats.ids == sent.flatMap { $0.map(\.id.uuidString) })
            #expect(stats.duplicates == 0)
            // Each drop came on the connection of the request before it; each resend opened the next one.
            let connections = stats.log.map(\.connection)
            try #require(connections.count == 5)
            #expect(connections[0] == connections[1] && connections[2] == connections[3])
            #expect(stats.connections == 3)
        }
    }

    @Test("the request timeout defaults to 30 seconds and can be set")
    func timeoutDefault() throws {
        let url = URL(string: "https://collector.example.com/v1/batch")!
        #expect(HTTPEventTransport.defaultTimeout == .seconds(30))
        #expect(try HTTPEventTransport(endpoint: url).timeout == .seconds(30))
        #expect(try HTTPEventTransport(endpoint: url, apiKey: nil, timeout: .seconds(4)).timeout == .seconds(4))
        #expect(try HTTPEventTransport(endpoint: url, apiKey: nil, timeout: .zero).timeout == .milliseconds(1))
    }

    @Test("a dropped connection and a response slower than the timeout are connection failures")
    func dropAndTimeout() async throws {
        try await TestCollector.with(script: ["drop", "slow"]) { collector in
            let transport = try HTTPEventTransport(endpoint: collector.batchURL, apiKey: nil, timeout: .seconds(1))

            let dropped = await transport.send(batch(makeEvents(1)))
            guard case .failed(let drop) = dropped else {
                Issue.record("expected a failure for a dropped connection, got \(dropped)")
                return
            }
            #expect(drop.kind == .connectionLost)

            let slow = await transport.send(batch(makeEvents(1)))
            #if canImport(FoundationNetworking)
            #expect(slow == .failed(TransportFailure(kind: .timedOut, message: "no bytes arrived for 1.0 seconds")))
            #else
            #expect(slow == .failed(TransportFailure(kind: .timedOut, message: "URLError -1001")))
            #endif
        }
    }

    @Test("the body uses ISO 8601 dates and keeps non-finite numbers as strings instead of failing")
    func bodyFormat() throws {
        var event = makeEvents(1)[0]
        event.properties["bad"] = .number(.nan)
        event.properties["big"] = .number(.infinity)
        let data = try batch([event]).encodedJSON()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["sentAt"] as? String == "2026-01-01T00:00:00.250Z")
        let events = try #require(object["batch"] as? [[String: Any]])
        #expect(events.count == 1)
        #expect(events[0]["id"] as? String == event.id.uuidString)
        #expect(events[0]["timestamp"] as? String == "2026-01-01T00:00:00.000Z")
        let properties = try #require(events[0]["properties"] as? [String: Any])
        #expect(properties["bad"] as? String == "NaN")
        #expect(properties["big"] as? String == "Infinity")
    }

    @Test("the hand-written body decodes back to the same events, whatever the strings and numbers")
    func bodyRoundTrip() throws {
        let tricky: [String: JSONValue] = [
            "quote\"back\\slash": "line\nbreak\ttab\r\u{8}\u{c}\u{1}\u{1f} \u{7f} é 漢字 🙂 \u{2028}",
            "numbers": [
                0, -0.0, 7, -42, 0.1, -2.5, 1e300, .number(.leastNonzeroMagnitude), 9_007_199_254_740_994,
                123_456_789.125,
            ],
            "nested": ["a": [nil, true, false, ["deep": "x"]], "empty": [:], "list": []],
            "": "empty key",
        ]
        let events = [
            ReportEvent(
                type: "click \"quoted\"",
                timestamp: Date(timeIntervalSince1970: 951_827_696.789),  // 2000-02-29T12:34:56.789Z
                sessionID: "s\\1",
                anonymousID: "a/1",
                userID: "user-ü",
                properties: tricky
            ),
            ReportEvent(
                type: "executed",
                timestamp: Date(timeIntervalSince1970: -0.001),
                sessionID: "s",
                anonymousID: "a",
                properties: [:]
            ),
        ]
        let data = try EventBatch(events: events, sentAt: Date(timeIntervalSince1970: 0)).encodedJSON()

        struct Body: Decodable {
            var batch: [ReportEvent]
            var sentAt: Date
        }
        let decoder = JSONDecoder()
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        decoder.dateDecodingStrategy = .custom { decoder in
            try style.parse(try decoder.singleValueContainer().decode(String.self))
        }
        let body = try decoder.decode(Body.self, from: data)
        #expect(body.batch.count == 2)
        for (decoded, original) in zip(body.batch, events) {
            #expect(decoded.id == original.id)
            #expect(decoded.type == original.type)
            #expect(decoded.sessionID == original.sessionID)
            #expect(decoded.anonymousID == original.anonymousID)
            #expect(decoded.userID == original.userID)
            #expect(decoded.properties == original.properties)
            #expect(abs(decoded.timestamp.timeIntervalSince(original.timestamp)) < 0.000_5)
        }
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""timestamp":"2000-02-29T12:34:56.789Z""#))
        #expect(text.contains(#""timestamp":"1969-12-31T23:59:59.999Z""#))
        #expect(text.hasSuffix(#""sentAt":"1970-01-01T00:00:00.000Z"}"#))
        #expect(!text.contains("userID\":null"))
    }

    @Test("the wire format writes every stored property of ReportEvent")
    func wireFormatCoversEveryField() throws {
        let event = ReportEvent(
            type: "t",
            timestamp: Date(),
            sessionID: "s",
            anonymousID: "a",
            userID: "u",
            properties: ["k": 1]
        )
        let data = try EventBatch(events: [event], sentAt: Date()).encodedJSON()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let written = try #require((object["batch"] as? [[String: Any]])?.first)
        let stored = Set(Mirror(reflecting: event).children.compactMap(\.label))
        #expect(Set(written.keys) == stored)
    }
}

extension TransportResponse {
    /// The HTTP status, or nil for a failure.
    fileprivate var statusCode: Int? {
        if case .http(let response) = self { return response.statusCode }
        return nil
    }

    /// The kind of failure, or nil for an HTTP response.
    fileprivate var failureKind: TransportFailure.Kind? {
        if case .failed(let failure) = self { return failure.kind }
        return nil
    }
}
