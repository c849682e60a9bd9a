import Foundation
import Testing

@testable import ActuatePersonalization
@testable import ActuateReporting

/// Issue 22, point 7 (Evergage): "HTTPCampaignSource: it posts the tracked events (items, cart, purchase, actions)
/// and reads back campaigns with the server's test/control assignment per user, under the package's one transport
/// policy (HTTPS off loopback, no redirects with credentials, bounded responses)".
@Suite("HTTPCampaignSource against a loopback campaign server")
struct HTTPCampaignSourceTests {
    static let shoes = try! Product(id: "p1", name: "Trail shoes", price: 89, currency: "EUR")

    private func source(
        _ server: TestCampaignServer,
        maximumResponseBytes: Int = 64 * 1_024
    ) throws
        -> HTTPCampaignSource
    {
        try HTTPCampaignSource(
            endpoint: server.campaignsURL,
            apiKey: "test-key-123",
            limits: .campaigns.changing(
                timeout: .seconds(20),
                deadline: .seconds(40),
                maximumResponseBytes: maximumResponseBytes
            )
        )
    }

    private static let request = CampaignRequest(
        trigger: .action("Open Reviews"),
        contextName: "Product",
        identity: StoredIdentity(anonymousID: "visitor-1")
    )

    @Test("A screen's events reach the server, and its campaigns (held, delivered, control) come back on virtual time")
    func endToEnd() async throws {
        try await TestCampaignServer.with { server in
            let fixture = CampaignFixture(source: try source(server))
            let screen = fixture.manager.makeScreen(named: "Product")
            screen.viewWillAppear()
            screen.setCampaignHandler(fixture.handler("banner"), forTarget: "product-banner")
            screen.setCampaignHandler(fixture.handler("footer"), forTarget: "product-footer")
            screen.viewItem(Self.shoes)
            await fixture.settle()
            #expect(fixture.deliveries.all.isEmpty, "the screen is not visible yet: the campaign is held")
            fixture.scheduler.advance(by: CampaignFixture.visibilityTimeout / 2)
            screen.viewDidAppear()
            await fixture.settle()
            screen.addToCart(try LineItem(product: Self.shoes))
            try fixture.reporter.identity.identify(userID: "user-42")
            screen.trackAction("Open Reviews")
            screen.purchase(try Order(orderID: "o-1"))
            await fixture.settle()

            #expect(
                fixture.deliveries.summary == [
                    "banner: free-shipping", "banner: complete-the-look", "footer: members-reviews",
                ]
            )
            let delivered = fixture.deliveries.all.map(\.campaign)
            try #require(delivered.count == 3)
            #expect(delivered.map(\.isControlGroup) == [false, false, true], "the server's assignment")
            #expect(delivered[1].promotedItemKeys == ["Product:p2"])
            #expect(delivered[0].experienceID == "server-1")
            #expect(delivered[0].data["headline"] == "Free shipping on shoes this week")
            #expect(fixture.decisions().first?.hasPrefix("Hold Campaign") == true)

            let requests = try await server.requests()
            #expect(requests.count == 4)
            #expect(requests.allSatisfy { $0.authorization == "Bearer test-key-123" })
            let bodies = requests.compactMap(\.body)
            try #require(bodies.count == 4)
            #expect(
                bodies.map { $0.member("trigger") } == [
                    ["kind": "itemView", "itemType": "Product", "itemIds": ["p1"]],
                    ["kind": "addToCart", "itemType": "Product", "itemIds": ["p1"]],
                    ["kind": "action", "name": "Open Reviews"],
                    ["kind": "purchase", "itemType": "Product", "itemIds": ["p1"]],
                ]
            )
            #expect(bodies.allSatisfy { $0.member("context") == "Product" })
            #expect(bodies.allSatisfy { $0.member("anonymousId") == "visitor-1" })
            #expect(bodies.map { $0.member("userId") } == [nil, nil, "user-42", "user-42"])
            #expect(bodies[0].member("properties")?.member("item") == Self.shoes.jsonValue)
            #expect(bodies[1].member("properties")?.member("cart") == [(try LineItem(product: Self.shoes)).jsonValue])
            #expect(bodies[3].member("properties")?.member("order")?.member("orderId") == "o-1")
        }
    }

    @Test(
        "hostile and broken answers are clear errors, never crashes",
        arguments: [
            (
                "bad-number",
                "$.campaigns[0].campaignId: expected a non-empty string or a whole number from -9007199254740991 to 9007199254740991, found 1e+300"
            ),
            ("wrong-shape", "$.campaigns: expected an array, found an object"),
            ("not-json", "not valid JSON"),
            ("oversized", "larger than 65536 bytes"),
            ("redirect", "redirect (HTTP 307); it is not followed"),
            ("500", "failed (HTTP 500)"),
            ("401", "refused the API key (HTTP 401)"),
            ("404", "answered HTTP 404"),
        ]
    )
    func hostileAnswers(entry: String, reason: String) async throws {
        try await TestCampaignServer.with(script: [entry]) { server in
            do {
                let campaigns = try await source(server).campaigns(for: Self.request)
                Issue.record("expected an error, got \(campaigns)")
            } catch {
                #expect(error is CampaignSourceError)
                #expect("\(error)".contains(reason), "\(error)")
                #expect(!"\(error)".contains("test-key-123"))
            }
            let received = try await server.requests().count
            #expect(received == 1, "a redirect is not followed: one request only")
        }
    }

    @Test("a body cut short or a dropped connection is an error naming the cause", arguments: ["truncated", "drop"])
    func cutShort(entry: String) async throws {
        let described = try await TestCampaignServer.with(script: [entry]) { server in
            let campaignSource = try source(server)
            await #expect(throws: CampaignSourceError.self) { try await campaignSource.campaigns(for: Self.request) }
            return campaignSource.description
        }
        #expect(described.hasPrefix("HTTPCampaignSource(endpoint: http://127.0.0.1:"))
    }

    @Test("every field is checked: each problem is named with its JSON path, and whole-number ids are taken")
    func fieldsChecked() async throws {
        let result = #"""
            {"campaigns": [
              {"target": "banner", "campaignId": 42, "messageId": 7, "isControlGroup": true, "data": {"n": 1.5}},
              {"target": "", "campaignId": 7.5, "isControlGroup": "no"},
              {"target": "t", "campaignId": "c", "promotedItemKeys": "Product:p1"},
              "campaign"
            ]}
            """#
        try await TestCampaignServer.with(result: result) { server in
            do {
                _ = try await source(server).campaigns(for: Self.request)
                Issue.record("expected a malformed response")
            } catch {
                guard case .malformedResponse(let reason) = error as? CampaignSourceError else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(
                    reason.components(separatedBy: " | ") == [
                        "$.campaigns[1].target: must not be empty",
                        "$.campaigns[1].campaignId: expected a non-empty string or a whole number, found 7.5",
                        #"$.campaigns[1].isControlGroup: expected true or false, found a string ("no")"#,
                        #"$.campaigns[2].promotedItemKeys: expected an array of strings, found a string ("Product:p1")"#,
                        "$.campaigns[2].isControlGroup: missing; expected true or false, the server's test or control assignment for this user",
                        #"$.campaigns[3]: expected an object, found a string ("campaign")"#,
                    ]
                )
            }
        }
        let good =
            #"{"campaigns": [{"target": "banner", "campaignId": 42, "messageId": 7, "isControlGroup": true, "data": {"n": 1.5}, "extra": "ignored"}]}"#
        try await TestCampaignServer.with(result: good) { server in
            let campaigns = try await source(server).campaigns(for: Self.request)
            #expect(
                campaigns == [
                    Campaign(target: "banner", campaignID: "42", messageID: "7", data: ["n": 1.5], isControlGroup: true)
                ]
            )
        }
    }

    @Test("a number in the data that no double holds (1e400) is refused as malformed, not read as infinity")
    func unrepresentableNumber() async throws {
        let result =
            #"{"campaigns": [{"target": "t", "campaignId": "c", "isControlGroup": false, "data": {"n": 1e400}}]}"#
        try await TestCampaignServer.with(result: result) { server in
            do {
                let campaigns = try await source(server).campaigns(for: Self.request)
                Issue.record("expected a malformed response, got \(campaigns)")
            } catch {
                if case .malformedResponse(let reason) = error as? CampaignSourceError {
                    #expect(reason.contains("not valid JSON"), "\(reason)")
                } else {
                    Issue.record("unexpected \(error)")
                }
            }
        }
    }

    @Test("a failing answer is recorded as a campaign source error, and the next event is still answered")
    func failureRecorded() async throws {
        try await TestCampaignServer.with(script: ["bad-number"]) { server in
            let fixture = CampaignFixture(source: try source(server))
            let screen = CampaignContextTrackingTests.visibleScreen(fixture)
            screen.setCampaignHandler(fixture.handler("banner"), forTarget: "product-banner")
            screen.trackAction("Open Reviews")
            screen.viewItem(Self.shoes)
            await fixture.settle()
            #expect(fixture.deliveries.summary == ["banner: free-shipping"])
            let error = try #require(try fixture.events(CampaignEventType.campaignSourceError).first)
            #expect(error.properties[CampaignEventKey.message]?.stringValue?.contains("1e+300") == true)
            #expect(error.properties["request"] == #"action "Open Reviews" in Product"#)
        }
    }

    @Test("endpoints and keys are checked, and the key never appears in a description")
    func configuration() throws {
        #expect(throws: CampaignSourceError.self) {
            try HTTPCampaignSource(endpoint: URL(string: "http://campaigns.example.com/v1")!)
        }
        #expect(throws: CampaignSourceError.self) { try HTTPCampaignSource(endpoint: URL(string: "file:///tmp/x")!) }
        #expect(throws: CampaignSourceError.invalidAPIKey(reason: "it is empty")) {
            try HTTPCampaignSource(endpoint: URL(string: "https://campaigns.example.com/v1")!, apiKey: "")
        }
        // The one key rule of every HTTP source (OutgoingRequestPolicy.apiKeyProblem).
        #expect(throws: CampaignSourceError.invalidAPIKey(reason: "it is blank: only whitespace")) {
            try HTTPCampaignSource(endpoint: URL(string: "https://campaigns.example.com/v1")!, apiKey: "   ")
        }
        let source = try HTTPCampaignSource(
            endpoint: URL(string: "https://campaigns.example.com/v1")!,
            apiKey: "super-secret"
        )
        #expect(!source.description.contains("super-secret"))
        #expect(!String(reflecting: source).contains("super-secret"))
    }

    @Test("a request larger than the limit is refused before anything is sent")
    func requestTooLarge() async throws {
        let source = try HTTPCampaignSource(
            endpoint: URL(string: "https://campaigns.example.com/v1")!,
            limits: .campaigns.changing(maximumRequestBytes: 100)
        )
        let request = CampaignRequest(
            trigger: .action("Open Reviews"),
            contextName: "Product",
            properties: ["note": .string(String(repeating: "x", count: 200))]
        )
        do {
            _ = try await source.campaigns(for: request)
            Issue.record("a request over the limit must be refused")
        } catch {
            if case CampaignSourceError.requestTooLarge(let bytes, let limit) = error {
                #expect(bytes > 200 && limit == 100)
            } else {
                Issue.record("unexpected \(error)")
            }
        }
    }
}

extension JSONValue {
    /// The member named `key`, if this is an object that has one.
    fileprivate func member(_ key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }
}
