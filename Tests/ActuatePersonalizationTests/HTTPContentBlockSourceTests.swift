import ActuateReporting
import Foundation
import Testing

@testable import ActuatePersonalization

/// The HTTP source against a real loopback server (`Tests/Support/content_server.py`).
@Suite("HTTPContentBlockSource")
struct HTTPContentBlockSourceTests {
    static let answer = #"""
        {"contentBlocks": [
          {"id": "remote-hero", "name": "Remote hero", "placeholders": ["home"], "html": "<p>from the server</p>",
           "ttlSeconds": 300, "variant": {"id": "b"}}
        ]}
        """#

    private func load(
        _ source: HTTPContentBlockSource,
        identity: StoredIdentity = StoredIdentity(anonymousID: "anon-1")
    ) async -> Result<[ContentBlock], ContentBlockError> {
        await source.result(identity: identity)
    }

    @Test("A manager shows blocks from the server, asking for its placeholders and the user's identity")
    func throughTheManager() async throws {
        try await ContentServer.with { server in
            try await server.setBlocksAnswer(Self.answer)
            let fixture = ContentBlockFixture()
            let manager = fixture.makeManager(try HTTPContentBlockSource(endpoint: server.blocksURL))
            let surface = InstantHTMLSurface()
            let placeholder = ContentBlockPlaceholder(
                placeholderID: "home",
                deferredLoad: true,
                manager: manager,
                surface: surface
            )
            await placeholder.reloadAndWait(manager)
            #expect(placeholder.contentBlock?.id == "remote-hero")
            #expect(placeholder.contentBlock?.timeToLive == .seconds(300))
            #expect(surface.documents.last?.contains("from the server") == true)
            try manager.identify(userID: "customer-7")
            await manager.waitUntilIdle()
            manager.prefetchPlaceholders(ids: ["home", "cart"])
            await manager.waitUntilIdle()

            let requests = try await server.stats().blockRequests
            #expect(requests.map(\.placeholderIDs) == [["home"], ["home", "cart"]])
            #expect(requests.allSatisfy { $0.anonymousID == fixture.reporter.identity.anonymousID })
            #expect(requests.map(\.userID) == [nil, "customer-7"])
        }
    }

    @Test(
        "Failures and malformed answers are clear errors, never crashes",
        arguments: [
            ("{\"contentBlocks\": []}", 500, "the server answered with status 500 (a server error)"),
            (#"{"contentBlocks": [{"id": "a", "name": "A", "placeh"#, 200, "$: not valid JSON"),
            (
                #"{"contentBlocks": [{"id": "a", "name": "A", "placeholders": ["home"], "html": "", "frequency": 1}]}"#,
                200,
                "$.contentBlocks[0].frequency: expected one of always"
            ),
            ("<html>gateway</html>", 200, "$: not valid JSON"),
            ("", 200, "$: not valid JSON"),
        ]
    )
    func failures(body: String, status: Int, expected: String) async throws {
        try await ContentServer.with { server in
            try await server.setBlocksAnswer(body, status: status)
            let result = await load(try HTTPContentBlockSource(endpoint: server.blocksURL))
            guard case .failure(let error) = result else {
                Issue.record("a bad answer was accepted: \(result)")
                return
            }
            #expect(error.description.contains(expected), "\(error)")
            #expect(error.description.contains(server.blocksURL.absoluteString))
        }
    }

    @Test(
        "A header name or value that could end its line is refused when the source is made, and never sent",
        arguments: [
            ["X-Test\r\nX-Injected: yes": "1"], ["X-Test": "1\r\nX-Injected: yes"], ["X-Test\nX-Injected": "yes"],
            ["X-Test": "a\u{0}b"], ["X Test": "1"], ["": "1"], ["X-Tést": "1"], ["X-Test:": "1"],
        ]
    )
    func headerInjection(headers: [String: String]) async throws {
        try await ContentServer.with { server in
            do throws(ContentBlockError) {
                let source = try HTTPContentBlockSource(endpoint: server.blocksURL, headers: headers)
                Issue.record("the headers \(headers.map { String(reflecting: $0.key) }) were accepted")
                _ = await load(source)
            } catch {
                guard case .sourceFailed(let endpoint, let reason) = error else {
                    Issue.record("not a source failure: \(error)")
                    return
                }
                #expect(endpoint == server.blocksURL.absoluteString)
                #expect(reason.contains("cannot be sent"), "\(reason)")
                #expect(!reason.contains("\r") && !reason.contains("\n"), "\(String(reflecting: reason))")
                // A value can be a secret: the error names the header, never what it holds.
                for value in headers.values where value.count > 1 { #expect(!reason.contains(value)) }
            }
            // A well-formed header goes out as it is, and nothing else was sent.
            let good = try HTTPContentBlockSource(endpoint: server.blocksURL, headers: ["X-Api-Key": "key 1 ~!"])
            _ = await load(good)
            let sent = try await server.stats().blockRequestHeaders
            #expect(sent.count == 1, "\(sent.count) requests reached the server")
            let lines = sent.flatMap { $0 }.map { $0.map { $0.lowercased() } }
            #expect(!lines.contains { $0.first == "x-injected" }, "an injected header reached the server: \(lines)")
            #expect(lines.contains(["x-api-key", "key 1 ~!"]), "\(lines)")
        }
    }

    @Test("A server that cannot be reached is a source failure")
    func unreachable() async throws {
        let server = try await ContentServer.start()
        let endpoint = server.blocksURL
        await server.shutdown()
        let result = await load(try HTTPContentBlockSource(endpoint: endpoint))
        guard case .failure(.sourceFailed(let source, _)) = result else {
            Issue.record("an unreachable server did not fail: \(result)")
            return
        }
        #expect(source == endpoint.absoluteString)
    }
}
