import ActuateTestSupport
import Foundation

/// Runs `Tests/Support/decision_server.py`, the loopback decision server, in a child process for one test.
///
/// ```swift
/// try await TestDecisionServer.with(result: json, script: ["ok", "truncated"]) { server in
///     let source = try HTTPDecisionSource(endpoint: server.decideURL, apiKey: "test-key")
///     …
///     let requests = try await server.requests()
/// }
/// ```
final class TestDecisionServer: Sendable {
    /// One request the server received.
    struct Request: Decodable, Sendable {
        struct Body: Decodable, Sendable {
            var visitorID: String
            var userID: String?
            var sessionCount: Int
            var commands: [JSONCommand]

            private enum CodingKeys: String, CodingKey {
                case visitorID = "visitorId"
                case userID = "userId"
                case sessionCount
                case commands
            }
        }

        /// A command as JSON, compared field by field.
        struct JSONCommand: Decodable, Sendable, Hashable {
            var command: String
            var document: String?
            var event: String?
            var productID: String?
            var articleID: String?
            var field: String?
            var value: String?

            private enum CodingKeys: String, CodingKey {
                case command
                case document
                case event
                case productID = "productId"
                case articleID = "articleId"
                case field
                case value
            }
        }

        var body: Body?
        var authorization: String?
    }

    /// The server's port on 127.0.0.1.
    var port: Int { server.port }
    private let server: LoopbackServerProcess

    /// `http://127.0.0.1:<port>/v1/decide`.
    var decideURL: URL { server.url("/v1/decide") }

    private init(server: LoopbackServerProcess) {
        self.server = server
    }

    /// Starts a server, runs `body`, and stops the server whether `body` succeeds or throws.
    static func with<T: Sendable>(
        result: String,
        script: [String] = [],
        _ body: (TestDecisionServer) async throws -> T
    ) async throws -> T {
        let server = try await start(result: result, script: script)
        return try await LoopbackServerProcess.using(server, shutdown: { await $0.shutdown() }, body)
    }

    /// Starts a server that answers "ok" with `result` and follows `script`, and waits for it to print its port.
    static func start(result: String, script: [String]) async throws -> TestDecisionServer {
        let arguments = ["--result", result, "--script", try LoopbackServerProcess.jsonArgument(script)]
        return TestDecisionServer(
            server: try await LoopbackServerProcess.start("decision_server.py", arguments: arguments)
        )
    }

    /// Every request received so far.
    func requests() async throws -> [Request] {
        struct Payload: Decodable { var requests: [Request] }
        return try JSONDecoder().decode(Payload.self, from: try await server.get("/control/requests")).requests
    }

    /// Replaces the rest of the server's script.
    func setScript(_ script: [String]) async throws {
        try await server.post("/control/script", body: try JSONEncoder().encode(script))
    }

    /// Asks the server to stop and waits for its process to exit.
    func shutdown() async {
        await server.shutdown()
    }
}
