import ActuateTestSupport
import Foundation

@testable import ActuatePersonalization
@testable import ActuateReporting

/// Runs `Tests/Support/campaign_server.py`, the loopback campaign server, in a child process for one test.
///
/// ```swift
/// try await TestCampaignServer.with(script: ["ok", "redirect"]) { server in
///     let source = try HTTPCampaignSource(endpoint: server.campaignsURL, apiKey: "test-key")
///     …
///     let requests = try await server.requests()
/// }
/// ```
final class TestCampaignServer: Sendable {
    /// One request the server received: its JSON body as posted, and its `Authorization` header.
    struct Request: Decodable, Sendable {
        var body: JSONValue?
        var authorization: String?
    }

    private let server: LoopbackServerProcess

    /// `http://127.0.0.1:<port>/v1/campaigns`.
    var campaignsURL: URL { server.url("/v1/campaigns") }

    private init(server: LoopbackServerProcess) {
        self.server = server
    }

    /// Starts a server, runs `body`, and stops the server whether `body` succeeds or throws.
    /// - Parameters:
    ///   - result: What "ok" answers whatever the request; nil to answer from `campaigns`.
    ///   - campaigns: A file of campaigns in the rules format to match requests against; nil for the shop demo's.
    ///   - script: The answers to give first, in order.
    static func with<T: Sendable>(
        result: String? = nil,
        campaigns: URL? = nil,
        script: [String] = [],
        _ body: (TestCampaignServer) async throws -> T
    ) async throws -> T {
        var arguments = ["--script", try LoopbackServerProcess.jsonArgument(script)]
        if let result { arguments += ["--result", result] }
        if let campaigns { arguments += ["--campaigns", campaigns.path] }
        let server = TestCampaignServer(
            server: try await LoopbackServerProcess.start("campaign_server.py", arguments: arguments)
        )
        return try await LoopbackServerProcess.using(server, shutdown: { await $0.server.shutdown() }, body)
    }

    /// Every request received so far.
    func requests() async throws -> [Request] {
        struct Payload: Decodable { var requests: [Request] }
        return try JSONDecoder().decode(Payload.self, from: try await server.get("/control/requests")).requests
    }
}
