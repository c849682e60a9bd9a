import Foundation
import Testing

@testable import ActuatePersonalization

@Suite("HTTPDecisionSource against a loopback server")
struct HTTPDecisionSourceTests {
    static let result = """
        {"conditions": [{"id": 1, "name": "Everyone"}, {"id": 2, "name": "Held back", "isControlGroup": true}],
         "actions": [{"id": 7, "name": "Spring banner", "contentType": "text/html",
                      "content": "<a href=\\"https://shop.example.com/spring\\">Spring sale, with a long enough body to cut in half</a>"}]}
        """

    private func source(_ server: TestDecisionServer) throws -> HTTPDecisionSource {
        try HTTPDecisionSource(
            endpoint: server.decideURL,
            apiKey: "test-key-123",
            limits: .decisions.changing(timeout: .seconds(20), deadline: .seconds(40))
        )
    }

    @Test("posts the visitor and the pending commands, and reads the decision back")
    func roundTrip() async throws {
        try await TestDecisionServer.with(result: Self.result) { server in
            let fixture = TrackerFixture(source: try source(server))
            try fixture.tracker.navigate(documentName: "home")
            try fixture.tracker.productViewed(productID: "sku-1")
            try fixture.tracker.logUserData(field: "tier", value: "gold")
            let result = try await fixture.tracker.getResult()
            #expect(result.actions.map(\.id) == [7])
            #expect(result.actions.first?.name == "Spring banner")
            #expect(
                result.conditions == [
                    TrackerCondition(id: 1, name: "Everyone"),
                    TrackerCondition(id: 2, name: "Held back", isControlGroup: true),
                ]
            )
            let requests = try await server.requests()
            #expect(requests.count == 1)
            let request = try #require(requests.first)
            #expect(request.authorization == "Bearer test-key-123")
            #expect(request.body?.visitorID == fixture.reporter.identity.anonymousID)
            #expect(request.body?.sessionCount == 1)
            #expect(
                request.body?.commands == [
                    .init(command: "navigate", document: "home"),
                    .init(command: "product", event: "viewed", productID: "sku-1"),
                    .init(command: "userData", field: "tier", value: "gold"),
                ]
            )
            #expect(fixture.tracker.pendingCommands.isEmpty)
            _ = try await fixture.tracker.getResult()
            #expect(try await server.requests().count == 1, "nothing pending: the cache answers")
        }
    }

    @Test("a truncated response is a clear error; the last good result and the pending commands are kept")
    func truncatedResponse() async throws {
        try await TestDecisionServer.with(result: Self.result, script: ["ok", "truncated", "ok"]) { server in
            let fixture = TrackerFixture(source: try source(server))
            let good = try await fixture.tracker.getResult()
            try fixture.tracker.productViewed(productID: "sku-2")
            do {
                _ = try await fixture.tracker.getResult()
                Issue.record("a truncated response must not be accepted")
            } catch {
                guard case .decisionFailed(let reason, let lastGood) = error as? TrackerError else {
                    Issue.record("unexpected error \(error)")
                    return
                }
                #expect(lastGood == good)
                let clear = reason.contains("connection to the decision server failed") || reason.contains("cut short")
                #expect(clear, "\(reason)")
            }
            #expect(fixture.tracker.cachedResult == good)
            #expect(fixture.tracker.pendingCommands == [.product(.viewed, productID: "sku-2")])
            _ = try await fixture.tracker.getResult()
            let requests = try await server.requests()
            #expect(requests.count == 3)
            #expect(requests[2].body?.commands == [.init(command: "product", event: "viewed", productID: "sku-2")])
            #expect(fixture.tracker.pendingCommands.isEmpty)
        }
    }

    @Test(
        "malformed bodies are refused with the reason",
        arguments: [
            ("cut-json", "not valid JSON"),
            ("not-json", "not valid JSON"),
            ("wrong-shape", "$.actions: expected an array, found an object"),
        ]
    )
    func malformedBodies(entry: String, reason: String) async throws {
        try await TestDecisionServer.with(result: Self.result, script: [entry]) { server in
            let source = try source(server)
            do {
                _ = try await source.decide(DecisionRequest(visitorID: "v", sessionCount: 1))
                Issue.record("expected a malformed response")
            } catch {
                guard case .invalidResponse(let invalid) = error as? DecisionSourceError else {
                    Issue.record("unexpected error \(error)")
                    return
                }
                #expect(invalid.problems.contains { $0.description.contains(reason) }, "\(invalid)")
            }
        }
    }

    @Test(
        "statuses and dropped connections become typed errors",
        arguments: [
            ("500", DecisionSourceError.serverError(status: 500)),
            ("503", .serverError(status: 503)),
            ("401", .unauthorized(status: 401)),
            ("413", .requestTooLarge(bytes: 0, limit: 0)),
            ("404", .unexpectedStatus(404)),
            ("drop", .connectionFailed(message: "")),
        ]
    )
    func statuses(entry: String, expected: DecisionSourceError) async throws {
        try await TestDecisionServer.with(result: Self.result, script: [entry]) { server in
            do {
                _ = try await source(server).decide(DecisionRequest(visitorID: "v", sessionCount: 1))
                Issue.record("expected \(expected)")
            } catch {
                switch (error as? DecisionSourceError, expected) {
                case (.serverError(let status), .serverError(let wanted)): #expect(status == wanted)
                case (.unauthorized(let status), .unauthorized(let wanted)): #expect(status == wanted)
                case (.unexpectedStatus(let status), .unexpectedStatus(let wanted)): #expect(status == wanted)
                case (.requestTooLarge, .requestTooLarge): break
                case (.connectionFailed(let message), .connectionFailed): #expect(!message.isEmpty)
                default: Issue.record("expected \(expected), got \(error)")
                }
            }
        }
    }

    @Test("endpoints and keys are checked, and the key never appears in a description")
    func configuration() throws {
        #expect(throws: DecisionSourceError.self) {
            try HTTPDecisionSource(endpoint: URL(string: "http://decisions.example.com/v1")!)
        }
        #expect(throws: DecisionSourceError.self) {
            try HTTPDecisionSource(endpoint: URL(string: "ftp://127.0.0.1/v1")!)
        }
        #expect(throws: DecisionSourceError.invalidAPIKey(reason: "it is empty")) {
            try HTTPDecisionSource(endpoint: URL(string: "https://decisions.example.com/v1")!, apiKey: "")
        }
        // The one key rule of every HTTP source (OutgoingRequestPolicy.apiKeyProblem).
        #expect(throws: DecisionSourceError.invalidAPIKey(reason: "it is blank: only whitespace")) {
            try HTTPDecisionSource(endpoint: URL(string: "https://decisions.example.com/v1")!, apiKey: "   ")
        }
        #expect(throws: DecisionSourceError.self) {
            try HTTPDecisionSource(endpoint: URL(string: "https://decisions.example.com/v1")!, apiKey: "a\nb")
        }
        let source = try HTTPDecisionSource(
            endpoint: URL(string: "https://decisions.example.com/v1")!,
            apiKey: "super-secret"
        )
        #expect(!source.description.contains("super-secret"))
        #expect(!String(reflecting: source).contains("super-secret"))
        #expect(try HTTPDecisionSource(endpoint: URL(string: "http://localhost:8080/v1")!).isIncremental)
    }

    @Test("a request larger than the limit is refused before anything is sent")
    func requestTooLarge() async throws {
        let source = try HTTPDecisionSource(
            endpoint: URL(string: "https://decisions.example.com/v1")!,
            limits: .decisions.changing(maximumRequestBytes: 100)
        )
        let request = DecisionRequest(
            visitorID: "v",
            sessionCount: 1,
            commands: Array(repeating: .navigate(documentName: "home"), count: 20)
        )
        await #expect(throws: DecisionSourceError.self) { try await source.decide(request) }
    }
}
