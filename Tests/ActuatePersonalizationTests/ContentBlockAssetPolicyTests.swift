import ActuateReporting
import Foundation
import Testing

@testable import ActuatePersonalization

/// What an asset server may send, against real loopback servers (`Tests/Support/content_server.py`,
/// `redirect_server.py`): only allowed image and font types, within the size, time, document and cache limits.
@Suite("Content-block asset policy")
struct ContentBlockAssetPolicyTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A])
    static let injection = #"image/png"><a id="injected" href="https://phish.example/">x</a><img src=""#

    private func block(_ urls: [URL], id: String = "hero", repeats: Int = 1) -> ContentBlock {
        let images = urls.map { "<img src=\"\($0.absoluteString)\">" }.joined()
        return .test(id, html: String(repeating: images, count: repeats) + "<a href=\"https://x.example\">Go</a>")
    }

    private func errorMessage(_ callback: RecordingContentBlockCallback) -> String? {
        guard case .error(_, _, let message) = callback.calls.first else { return nil }
        return message
    }

    private func assetFiles(_ fixture: ContentBlockFixture) -> [String] {
        let directory = fixture.directory.appendingPathComponent("assets")
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    @Test("A Content-Type that would inject markup is refused: the link never reaches a document, nothing is cached")
    func injectedType() async throws {
        try await ContentServer.with { server in
            try await server.setAsset("/assets/hero.png", body: Self.png, contentType: Self.injection)
            let fixture = ContentBlockFixture()
            let manager = fixture.makeManager(ScriptedContentBlockSource([block([server.url("/assets/hero.png")])]))
            let surface = InstantHTMLSurface()
            let (placeholder, callback) = await manager.loadedPlaceholder(surface: surface)
            #expect(surface.documents.allSatisfy { !$0.contains("injected") && !$0.contains("phish.example") })
            #expect(placeholder.contentBlock == nil)
            let message = try #require(errorMessage(callback))
            #expect(message.contains("is not an allowed image or font type"), "\(message)")
            #expect(try fixture.blockEvents().map(\.type) == ["error"])
            #expect(assetFiles(fixture).isEmpty, "a refused asset must not be cached")

            // Nothing was kept: the next load asks the server again, and a good answer is then shown.
            try await server.setAsset("/assets/hero.png", body: Self.png, contentType: "image/png")
            await placeholder.reloadAndWait(manager)
            #expect(try await server.stats().requests["/assets/hero.png"] == 2)
            #expect(surface.documents.last?.contains("data:image/png;base64,\(Self.png.base64EncodedString())") == true)
            #expect(surface.documents.allSatisfy { !$0.contains("injected") })
        }
    }

    @Test(
        "Allowed types are inlined lower-cased without parameters; others, SVG included, are refused",
        arguments: [
            ("IMAGE/PNG; charset=binary", "image/png"), ("image/webp", "image/webp"), ("font/woff2", "font/woff2"),
            ("image/svg+xml", nil), ("text/html", nil), ("application/octet-stream", nil), ("", nil),
        ] as [(String, String?)]
    )
    func allowList(served: String, inlined: String?) async throws {
        try await ContentServer.with { server in
            try await server.setAsset("/assets/a", body: Self.png, contentType: served)
            let fixture = ContentBlockFixture()
            let manager = fixture.makeManager(ScriptedContentBlockSource([block([server.url("/assets/a")])]))
            let surface = InstantHTMLSurface()
            let (_, callback) = await manager.loadedPlaceholder(surface: surface)
            if let inlined {
                #expect(surface.documents.last?.contains("data:\(inlined);base64,") == true, "\(callback.calls)")
            } else {
                #expect(surface.documents.isEmpty)
                #expect(errorMessage(callback)?.contains("not an allowed image or font type") == true)
            }
        }
    }

    @Test("A plain-http asset off loopback is refused without a request")
    func plainHTTPAsset() async throws {
        let fixture = ContentBlockFixture()
        let url = try #require(URL(string: "http://cdn.example.com/hero.png"))
        let manager = fixture.makeManager(ScriptedContentBlockSource([block([url])]))
        let surface = InstantHTMLSurface()
        let (_, callback) = await manager.loadedPlaceholder(surface: surface)
        #expect(surface.documents.isEmpty)
        let message = try #require(errorMessage(callback))
        #expect(message.contains("plain http is allowed only to a loopback host"), "\(message)")
    }

    @Test("An asset redirect is followed to an allowed URL, and not to plain http off loopback")
    func assetRedirects() async throws {
        try await ContentServer.with { server in
            try await server.setAsset("/assets/hero.png", body: Self.png)
            try await RedirectServer.with(location: server.url("/assets/hero.png")) { redirect in
                let fixture = ContentBlockFixture()
                let manager = fixture.makeManager(ScriptedContentBlockSource([block([redirect.url("/redirect/302")])]))
                let surface = InstantHTMLSurface()
                _ = await manager.loadedPlaceholder(surface: surface)
                #expect(surface.documents.last?.contains("data:image/png;base64,") == true)
                let requests = try await server.stats().requests
                #expect(requests["/assets/hero.png"] == 1)
            }
            let insecure = try #require(URL(string: "http://127.example.com/assets/hero.png"))
            try await RedirectServer.with(location: insecure) { redirect in
                let fixture = ContentBlockFixture()
                let manager = fixture.makeManager(ScriptedContentBlockSource([block([redirect.url("/redirect/302")])]))
                let surface = InstantHTMLSurface()
                let (_, callback) = await manager.loadedPlaceholder(surface: surface)
                #expect(surface.documents.isEmpty)
                #expect(errorMessage(callback)?.contains("the server answered with status 302") == true)
            }
        }
    }

    @Test("An endless asset is cut off at the size limit instead of being read whole")
    func streamedCap() async throws {
        try await RedirectServer.with { server in
            let fixture = ContentBlockFixture()
            var configuration = fixture.configuration()
            configuration.maxAssetBytes = 1_000
            let manager = fixture.makeManager(
                ScriptedContentBlockSource([block([server.url("/stream/50000000")])]),
                configuration: configuration
            )
            let (_, callback) = await manager.loadedPlaceholder()
            let message = try #require(errorMessage(callback))
            #expect(message.contains("larger than 1000 bytes"), "\(message)")
            let streamed = try await server.records().streamed
            #expect(streamed < 40_000_000, "the download must stop at the limit: \(streamed)")
        }
    }

    @Test("A server that trickles an asset is stopped at the total deadline, though it is never idle")
    func totalDeadline() async throws {
        try await RedirectServer.with { server in
            let fixture = ContentBlockFixture()
            var configuration = fixture.configuration()
            configuration.assetTimeout = .seconds(30)
            configuration.assetDeadline = .milliseconds(500)
            let manager = fixture.makeManager(
                ScriptedContentBlockSource([block([server.url("/trickle/600")])]),
                configuration: configuration
            )
            let (_, callback) = await manager.loadedPlaceholder()
            let message = try #require(errorMessage(callback), "\(callback.calls)")
            #expect(message.contains("did not complete within"), "\(message)")
            // 600 bytes at one every 50 ms take 30 s, never idle long enough for the 30 s timeout: the server
            // never sent them all, so the download was given up at the deadline, not at the asset's end.
            let trickled = try await server.records().trickled
            #expect(trickled < 600, "the server trickled the whole asset: \(trickled) bytes")
        }
    }

    @Test("A block that names one asset in many places is refused when its document would pass the size limit")
    func documentCap() async throws {
        try await ContentServer.with { server in
            try await server.setAsset("/assets/hero.png", body: Data(repeating: 7, count: 3_000))
            let fixture = ContentBlockFixture()
            var configuration = fixture.configuration()
            configuration.maxDocumentBytes = 100_000
            let url = server.url("/assets/hero.png")
            let manager = fixture.makeManager(
                ScriptedContentBlockSource([block([url], repeats: 100)]),
                configuration: configuration
            )
            let surface = InstantHTMLSurface()
            let (_, callback) = await manager.loadedPlaceholder(surface: surface)
            #expect(surface.documents.isEmpty)
            let message = try #require(errorMessage(callback))
            #expect(message.contains("more than the limit of 100000"), "\(message)")

            // The same block naming the asset a few times fits.
            let small = fixture.makeManager(
                ScriptedContentBlockSource([block([url], repeats: 3)]),
                configuration: configuration
            )
            let smallSurface = InstantHTMLSurface()
            _ = await small.loadedPlaceholder(surface: smallSurface)
            #expect(smallSurface.documents.count == 1)
        }
    }

    @Test("The asset cache keeps at most its byte limit, dropping the asset used longest ago")
    func cacheCap() async throws {
        try await ContentServer.with { server in
            for name in ["a", "b", "c"] {
                try await server.setAsset("/assets/\(name).png", body: Data(repeating: 1, count: 1_000))
            }
            let fixture = ContentBlockFixture()
            var configuration = fixture.configuration()
            configuration.maxAssetCacheBytes = 2_500
            let source = ScriptedContentBlockSource([block([server.url("/assets/a.png")], id: "a")])
            let manager = fixture.makeManager(source, configuration: configuration)
            let surface = InstantHTMLSurface()
            let (placeholder, _) = await manager.loadedPlaceholder(surface: surface)
            for name in ["b", "c"] {
                source.serve([block([server.url("/assets/\(name).png")], id: name)])
                manager.prefetchPlaceholders(ids: ["home"])
                await manager.waitUntilIdle()
                await placeholder.reloadAndWait(manager)
            }
            #expect(surface.documents.count == 3)
            let dataFiles = assetFiles(fixture).filter { $0.hasSuffix(".data") }
            #expect(dataFiles.count == 2, "\(dataFiles)")

            // `a`, used longest ago, was dropped from memory and disk: showing it again downloads it again.
            source.serve([block([server.url("/assets/a.png")], id: "a")])
            manager.prefetchPlaceholders(ids: ["home"])
            await manager.waitUntilIdle()
            await placeholder.reloadAndWait(manager)
            let requests = try await server.stats().requests
            #expect(requests["/assets/a.png"] == 2)
            #expect(requests["/assets/b.png"] == 1)
            #expect(requests["/assets/c.png"] == 1)
            #expect(assetFiles(fixture).filter { $0.hasSuffix(".data") }.count == 2)
        }
    }

    @Test("Asset cache files are owner-only (0600) in an owner-only directory (0700), even one made 0755 before")
    func ownerOnlyFiles() async throws {
        try await ContentServer.with { server in
            try await server.setAsset("/assets/hero.png", body: Self.png)
            let fixture = ContentBlockFixture()
            let directory = fixture.directory.appendingPathComponent("assets")
            try FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o755]
            )
            let manager = fixture.makeManager(ScriptedContentBlockSource([block([server.url("/assets/hero.png")])]))
            _ = await manager.loadedPlaceholder()
            let names = assetFiles(fixture)
            #expect(names.count == 2, "\(names)")
            for name in names {
                #expect(try permissions(directory.appendingPathComponent(name)) == 0o600, "\(name)")
            }
            #expect(try permissions(directory) == 0o700)
        }
    }

    private func permissions(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return ((attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1) & 0o777
    }
}
