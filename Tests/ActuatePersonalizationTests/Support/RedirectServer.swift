import ActuateTestSupport
import Foundation

/// Runs `Tests/Support/redirect_server.py` in a child process for one test: it redirects to a given location,
/// and sends oversized, endless and slow answers.
///
/// ```swift
/// try await RedirectServer.with(location: decisionServer.decideURL) { redirect in
///     let source = try HTTPDecisionSource(endpoint: redirect.url("/redirect/307"), apiKey: "key")
///     …
///     #expect(try await redirect.records().requests.count == 1)
/// }
/// ```
final class RedirectServer: Sendable {
    /// What the server recorded.
    struct Records: Decodable, Sendable {
        /// One request to a `/redirect/<status>` path.
        struct Request: Decodable, Sendable {
            var method: String
            var path: String
            var authorization: String?
        }

        /// The requests to `/redirect/<status>` paths, oldest first.
        var requests: [Request]
        /// The bytes `/stream/<bytes>` answers wrote before they ended or the client went away.
        var streamed: Int
        /// The bytes `/trickle/<bytes>` answers wrote before they ended or the client went away.
        var trickled: Int
    }

    private let server: LoopbackServerProcess

    private init(server: LoopbackServerProcess) {
        self.server = server
    }

    /// The URL of a path on the server, such as `/redirect/307`.
    func url(_ path: String) -> URL {
        server.url(path)
    }

    /// Starts a server whose redirects point to `location`, runs `body`, and stops the server.
    static func with<T: Sendable>(
        location: URL = URL(string: "http://127.0.0.1:9/")!,
        _ body: (RedirectServer) async throws -> T
    ) async throws -> T {
        let process = try await LoopbackServerProcess.start(
            "redirect_server.py",
            arguments: ["--location", location.absoluteString]
        )
        return try await LoopbackServerProcess.using(
            RedirectServer(server: process),
            shutdown: { await $0.shutdown() },
            body
        )
    }

    /// What the server recorded so far.
    func records() async throws -> Records {
        try JSONDecoder().decode(Records.self, from: try await server.get("/control/requests"))
    }

    /// Asks the server to stop and waits for its process to exit.
    func shutdown() async {
        await server.shutdown()
    }
}
