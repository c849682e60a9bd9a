import ActuateTestSupport
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs `Tests/Support/content_server.py`, the loopback asset and content-block server, in a child process
/// for one test.
///
/// ```swift
/// try await ContentServer.with { server in
///     try await server.setAsset("/assets/hero.png", body: Data([1, 2, 3]), contentType: "image/png")
///     …
///     #expect(try await server.stats().requests["/assets/hero.png"] == 1)
/// }
/// ```
final class ContentServer: Sendable {
    /// What the server reports at `GET /control/stats`.
    struct Stats: Decodable, Sendable {
        /// Requests per path (assets and the block endpoint).
        var requests: [String: Int]
        /// The bodies posted to the block endpoint, oldest first.
        var blockRequests: [BlockRequest]
        /// The header lines of each request to the block endpoint, as the server split them (name, value).
        var blockRequestHeaders: [[[String]]]
    }

    /// One request to the block endpoint, as the source posted it.
    struct BlockRequest: Decodable, Sendable {
        var placeholderIDs: [String]?
        var anonymousID: String?
        var userID: String?

        private enum CodingKeys: String, CodingKey {
            case placeholderIDs = "placeholderIds"
            case anonymousID = "anonymousId"
            case userID = "userId"
        }
    }

    /// The server's port on 127.0.0.1.
    var port: Int { server.port }
    private let server: LoopbackServerProcess

    private init(server: LoopbackServerProcess) {
        self.server = server
    }

    /// The block endpoint, `http://127.0.0.1:<port>/v1/content-blocks`.
    var blocksURL: URL { url("/v1/content-blocks") }

    /// The URL of a path on the server, such as `/assets/hero.png`.
    func url(_ path: String) -> URL {
        server.url(path)
    }

    /// Starts a server, runs `body`, and stops the server whether `body` succeeds or throws.
    static func with<T: Sendable>(_ body: (ContentServer) async throws -> T) async throws -> T {
        try await LoopbackServerProcess.using(try await start(), shutdown: { await $0.shutdown() }, body)
    }

    /// Starts a server with `python3` from PATH and waits for it to print its port.
    static func start(maxSeconds: Double = 300) async throws -> ContentServer {
        let arguments = ["--max-seconds", String(maxSeconds)]
        return ContentServer(server: try await LoopbackServerProcess.start("content_server.py", arguments: arguments))
    }

    /// Serves `body` at `path` with `status` and `contentType`, replacing what was there.
    func setAsset(_ path: String, body: Data, contentType: String = "image/png", status: Int = 200) async throws {
        let config: [String: String] = [
            "path": path, "contentType": contentType, "base64": body.base64EncodedString(), "status": String(status),
        ]
        try await post("/control/asset", try JSONEncoder().encode(config))
    }

    /// Answers block requests with `body`, sent as given, and `status`.
    func setBlocksAnswer(_ body: String, status: Int = 200) async throws {
        try await post("/control/blocks", try JSONEncoder().encode(["body": body, "status": String(status)]))
    }

    /// The server's counters.
    func stats() async throws -> Stats {
        try JSONDecoder().decode(Stats.self, from: try await server.get("/control/stats"))
    }

    /// Asks the server to stop and waits for its process to exit; closing its input stops it too.
    func shutdown() async {
        await server.shutdown()
    }

    private func post(_ path: String, _ body: Data) async throws {
        guard try await server.post(path, body: body) == 200 else { throw URLError(.badServerResponse) }
    }
}
