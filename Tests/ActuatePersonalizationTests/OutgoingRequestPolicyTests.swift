import Foundation
import Testing

@testable import ActuatePersonalization
@testable import ActuateReporting

/// The package's one outgoing-request policy, through the decision source and the content-block source, against
/// real loopback servers (`Tests/Support/redirect_server.py`, `decision_server.py`, `content_server.py`).
@Suite("Outgoing request policy")
struct OutgoingRequestPolicyTests {
    static let secret = "sk_live_decision_7f3a9c"
    static let decision = #"{"conditions": [], "actions": [{"id": 99, "name": "From the redirect target"}]}"#
    static let blocks = #"""
        {"contentBlocks": [{"id": "moved", "name": "Moved", "placeholders": ["home"], "html": "<p>moved</p>"}]}
        """#

    private func load(_ source: HTTPContentBlockSource) async -> Result<[ContentBlock], ContentBlockError> {
        await source.result()
    }

    @Test(
        "A decision redirected by 307 or 308 is refused: the key never reaches the target, whose answer is unused",
        arguments: [307, 308]
    )
    func decisionRedirect(status: Int) async throws {
        try await TestDecisionServer.with(result: Self.decision) { target in
            try await RedirectServer.with(location: target.decideURL) { redirect in
                let source = try HTTPDecisionSource(endpoint: redirect.url("/redirect/\(status)"), apiKey: Self.secret)
                let error = await #expect(throws: DecisionSourceError.self) {
                    try await source.decide(DecisionRequest(visitorID: "v", sessionCount: 1))
                }
                #expect(error == .redirected(status: status))
                #expect(try await target.requests().isEmpty, "the redirect target must not be asked")
                let asked = try await redirect.records().requests
                #expect(asked.map(\.authorization) == ["Bearer \(Self.secret)"])
            }
        }
    }

    @Test(
        "Names that only look like loopback are refused for plain http, by both sources",
        arguments: [
            "http://127.example.com/v1/decide", "http://127.0.0.1.example/v1/decide", "http://localhost.example/x",
            "http://127.0.0.1@evil.example/x", "http://127.1/x", "http://127.0.0.+1/x", "http://0x7f.0.0.1/x",
            "ftp://127.0.0.1/x", "file:///etc/passwd",
        ]
    )
    func fakeLoopback(text: String) throws {
        let url = try #require(URL(string: text))
        #expect(throws: DecisionSourceError.self) { try HTTPDecisionSource(endpoint: url, apiKey: Self.secret) }
        #expect(throws: ContentBlockError.self) { try HTTPContentBlockSource(endpoint: url) }
    }

    @Test(
        "Real loopback addresses and https are accepted by both sources",
        arguments: [
            "http://127.0.0.1:8080/x", "http://127.9.8.7/x", "http://localhost:9/x", "http://[::1]:9/x",
            "https://decisions.example.com/x",
        ]
    )
    func realLoopback(text: String) throws {
        let url = try #require(URL(string: text))
        #expect(try HTTPDecisionSource(endpoint: url).endpoint == url)
        #expect(try HTTPContentBlockSource(endpoint: url).endpoint == url)
    }

    @Test("A content-block request with an authorization header does not follow a redirect", arguments: [307, 308])
    func contentBlockRedirectWithCredentials(status: Int) async throws {
        try await ContentServer.with { target in
            try await target.setBlocksAnswer(Self.blocks)
            try await RedirectServer.with(location: target.blocksURL) { redirect in
                let source = try HTTPContentBlockSource(
                    endpoint: redirect.url("/redirect/\(status)"),
                    headers: ["Authorization": "Bearer \(Self.secret)"]
                )
                let result = await load(source)
                guard case .failure(let error) = result else {
                    Issue.record("the redirected answer was used: \(result)")
                    return
                }
                #expect(error.description.contains("the server answered with status \(status)"), "\(error)")
                #expect(try await target.stats().blockRequests.isEmpty, "the redirect target must not be asked")
                #expect(try await redirect.records().requests.map(\.authorization) == ["Bearer \(Self.secret)"])
            }
        }
    }

    @Test("A content-block request without credentials does not follow a redirect either")
    func contentBlockRedirectWithoutCredentials() async throws {
        try await ContentServer.with { target in
            try await target.setBlocksAnswer(Self.blocks)
            try await RedirectServer.with(location: target.blocksURL) { redirect in
                let result = await load(try HTTPContentBlockSource(endpoint: redirect.url("/redirect/307")))
                guard case .failure(let error) = result else {
                    Issue.record("the redirected answer was used: \(result)")
                    return
                }
                #expect(error.description.contains("the server answered with status 307"), "\(error)")
                #expect(try await target.stats().blockRequests.isEmpty)
            }
        }
    }

    @Test("A content-block answer larger than the limit is refused, and reading stops at the limit")
    func contentBlockOversized() async throws {
        try await RedirectServer.with { server in
            let source = try HTTPContentBlockSource(
                endpoint: server.url("/stream/50000000"),
                limits: .contentBlocks.changing(maximumResponseBytes: 1_000)
            )
            let result = await load(source)
            guard case .failure(let error) = result else {
                Issue.record("an oversized answer was accepted: \(result)")
                return
            }
            #expect(error.description.contains("larger than 1000 bytes"), "\(error)")
            // The server counts what it wrote before the client went away: far less than the 50 MB it offered.
            #expect(try await server.records().streamed < 40_000_000)
        }
    }

    @Test("A content-block answer that declares a length over the limit is refused before its body is read")
    func contentBlockDeclaredOversized() async throws {
        try await RedirectServer.with { server in
            let source = try HTTPContentBlockSource(
                endpoint: server.url("/declared/5000"),
                limits: .contentBlocks.changing(maximumResponseBytes: 1_000)
            )
            let result = await load(source)
            guard case .failure(let error) = result else {
                Issue.record("an oversized answer was accepted: \(result)")
                return
            }
            #expect(error.description.contains("larger than 1000 bytes"), "\(error)")
        }
    }

    @Test("A decision answer larger than the limit is refused")
    func decisionOversized() async throws {
        let big =
            #"{"conditions": [], "actions": [{"id": 1, "name": ""# + String(repeating: "x", count: 5_000) + #""}]}"#
        try await TestDecisionServer.with(result: big) { server in
            let source = try HTTPDecisionSource(
                endpoint: server.decideURL,
                limits: .decisions.changing(maximumResponseBytes: 1_000)
            )
            let error = await #expect(throws: DecisionSourceError.self) {
                try await source.decide(DecisionRequest(visitorID: "v", sessionCount: 1))
            }
            #expect(error?.description.contains("larger than 1000 bytes") == true, "\(String(describing: error))")
        }
    }
}
