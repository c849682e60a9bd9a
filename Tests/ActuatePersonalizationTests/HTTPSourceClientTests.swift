import ActuateReporting
import Foundation
import Testing

@testable import ActuatePersonalization

/// Issue 44: the three HTTP sources are one shape, on one core (`HTTPSourceClient`): one credentials rule, one
/// limits policy with a default per kind of answer, one status mapping.
@Suite("One HTTP source core")
struct HTTPSourceClientTests {
    static let endpoint = URL(string: "https://sources.example.com/v1")!

    /// What each source's init makes of some credentials: nil when accepted, otherwise its error's description.
    static func refusals(apiKey: String?, headers: [String: String]) -> [String?] {
        func refusal(_ make: () throws -> Void) -> String? {
            do {
                try make()
                return nil
            } catch {
                return "\(error)"
            }
        }
        return [
            refusal { _ = try HTTPDecisionSource(endpoint: endpoint, apiKey: apiKey, headers: headers) },
            refusal { _ = try HTTPCampaignSource(endpoint: endpoint, apiKey: apiKey, headers: headers) },
            refusal { _ = try HTTPContentBlockSource(endpoint: endpoint, apiKey: apiKey, headers: headers) },
        ]
    }

    @Test(
        "every source refuses the same keys and headers, naming the header and never the value",
        arguments: [
            (nil, ["X-Test\r\nX-Injected": "1"], "cannot be sent: it is not an HTTP token"),
            (nil, ["X-Test": "secret\r\nX-Injected: yes"], "cannot be sent: it contains characters"),
            (nil, ["Content-Type": "text/plain"], "the source sets it itself"),
            (nil, ["accept": "text/html"], "the source sets it itself"),
            ("sk_live_1", ["Authorization": "Bearer other"], "the key is the authorization"),
            ("", [:], "it is empty"),
            ("   ", [:], "it is blank: only whitespace"),
            ("secret\u{7}", [:], "not printable ASCII"),
        ] as [(String?, [String: String], String)]
    )
    func sameCredentialsRule(apiKey: String?, headers: [String: String], reason: String) {
        let refusals = Self.refusals(apiKey: apiKey, headers: headers)
        for (source, refusal) in zip(["decision", "campaign", "content-block"], refusals) {
            let message = refusal ?? "accepted"
            #expect(message.contains(reason), "the \(source) source: \(message)")
            #expect(!message.contains("secret") && !message.contains("Bearer other"), "\(message)")
        }
    }

    @Test("a key with extra headers, or an Authorization header alone, is accepted by every source")
    func acceptedCredentials() {
        #expect(Self.refusals(apiKey: "sk_1", headers: ["X-Tenant": "shop-1"]) == [nil, nil, nil])
        #expect(Self.refusals(apiKey: nil, headers: ["Authorization": "Token abc"]) == [nil, nil, nil])
    }

    @Test("each kind of answer has its documented limits, and every source applies them or the ones it is given")
    func limits() throws {
        let decisions = HTTPSourceLimits.decisions
        let campaigns = HTTPSourceLimits.campaigns
        let blocks = HTTPSourceLimits.contentBlocks
        #expect(
            [decisions.timeout, decisions.deadline, campaigns.timeout, campaigns.deadline, blocks.timeout]
                == [.seconds(15), .seconds(30), .seconds(15), .seconds(30), .seconds(30)]
        )
        #expect(blocks.deadline == .seconds(60))
        let requestBytes: [Int] = [decisions, campaigns, blocks].map(\.maximumRequestBytes)
        let responseBytes: [Int] = [decisions, campaigns, blocks].map(\.maximumResponseBytes)
        #expect(requestBytes == [524_288, 262_144, 65_536])
        #expect(responseBytes == [4_194_304, 1_048_576, 4_194_304])
        #expect(try HTTPDecisionSource(endpoint: Self.endpoint).http.limits == .decisions)
        #expect(try HTTPCampaignSource(endpoint: Self.endpoint).http.limits == .campaigns)
        #expect(try HTTPContentBlockSource(endpoint: Self.endpoint).http.limits == .contentBlocks)
        let tiny = HTTPSourceLimits(timeout: .zero, deadline: .zero, maximumRequestBytes: 0, maximumResponseBytes: -1)
        let applied = try HTTPCampaignSource(endpoint: Self.endpoint, limits: tiny).http.limits
        #expect(
            applied
                == HTTPSourceLimits(
                    timeout: .milliseconds(1),
                    deadline: .milliseconds(1),
                    maximumRequestBytes: 1,
                    maximumResponseBytes: 1
                )
        )
    }

    @Test("every source describes itself the same way, and neither its description nor a dump shows a secret")
    func descriptions() throws {
        let url = try #require(URL(string: "https://user:pw@sources.example.com/v1"))
        let headers = ["X-Tenant": "tenant-secret"]
        let sources: [(String, any CustomStringConvertible)] = [
            ("HTTPDecisionSource", try HTTPDecisionSource(endpoint: url, apiKey: "key-secret", headers: headers)),
            ("HTTPCampaignSource", try HTTPCampaignSource(endpoint: url, apiKey: "key-secret", headers: headers)),
            (
                "HTTPContentBlockSource",
                try HTTPContentBlockSource(endpoint: url, apiKey: "key-secret", headers: headers)
            ),
        ]
        for (name, source) in sources {
            #expect(
                source.description
                    == "\(name)(endpoint: https://sources.example.com/v1, apiKey: set, headers: X-Tenant)"
            )
            var dumped = ""
            dump(source, to: &dumped)
            for text in [source.description, String(reflecting: source), dumped] {
                #expect(!text.contains("secret") && !text.contains(":pw@"), "\(text)")
            }
        }
    }

    @Test("the content-block source sends its key as a Bearer header beside its extra headers")
    func contentBlockKey() async throws {
        try await ContentServer.with { server in
            try await server.setBlocksAnswer(#"{"contentBlocks": []}"#)
            let source = try HTTPContentBlockSource(
                endpoint: server.blocksURL,
                apiKey: "sk_blocks_1",
                headers: ["X-Tenant": "shop-1"]
            )
            #expect(
                try await source.loadBlocks(placeholderIDs: ["home"], identity: StoredIdentity(anonymousID: "a"))
                    .isEmpty
            )
            let lines = try await server.stats().blockRequestHeaders.flatMap { $0 }.map { $0.map { $0.lowercased() } }
            #expect(lines.contains(["authorization", "bearer sk_blocks_1"]), "\(lines)")
            #expect(lines.contains(["x-tenant", "shop-1"]), "\(lines)")
        }
    }

    @Test(
        "one status mapping: each status becomes the same failure for every source",
        arguments: [
            (301, "the server answered with status 301 (a redirect, not followed)"),
            (401, "the server answered with status 401 (the credentials were refused)"),
            (413, "the request is"),
            (503, "the server answered with status 503 (a server error)"),
            (404, "the server answered with status 404"),
        ]
    )
    func statuses(status: Int, reason: String) async throws {
        try await ContentServer.with { server in
            try await server.setBlocksAnswer("{}", status: status)
            let http = try HTTPSourceClient(
                endpoint: server.blocksURL,
                apiKey: nil,
                headers: [:],
                limits: .contentBlocks
            )
            do throws(HTTPSourceFailure) {
                _ = try await http.post { Data("{}".utf8) }
                Issue.record("status \(status) was accepted")
            } catch {
                #expect(error.description.hasPrefix(reason), "\(error)")
                let decision = DecisionSourceError(error)
                let campaign = CampaignSourceError(error)
                let block = ContentBlockError(error, source: "s")
                switch status {
                case 301:
                    #expect(decision == .redirected(status: 301) && campaign == .redirected(status: 301))
                case 401:
                    #expect(decision == .unauthorized(status: 401) && campaign == .unauthorized(status: 401))
                case 413:
                    #expect(decision == .requestTooLarge(bytes: 2, limit: 65_536))
                    #expect(campaign == .requestTooLarge(bytes: 2, limit: 65_536))
                case 503:
                    #expect(decision == .serverError(status: 503) && campaign == .serverError(status: 503))
                default:
                    #expect(decision == .unexpectedStatus(status) && campaign == .unexpectedStatus(status))
                }
                #expect(block == .sourceFailed(source: "s", reason: error.description))
            }
        }
    }
}
