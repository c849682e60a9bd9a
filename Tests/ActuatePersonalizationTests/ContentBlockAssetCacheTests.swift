import ActuateReporting
import Foundation
import Testing

@testable import ActuatePersonalization

/// Asset loading against a real loopback server (`Tests/Support/content_server.py`).
@Suite("ContentBlockAssetCache")
struct ContentBlockAssetCacheTests {
    static let red = Data([0x89, 0x50, 0x4E, 0x47, 0x01])
    static let blue = Data([0x89, 0x50, 0x4E, 0x47, 0x02])

    private func heroBlock(_ server: ContentServer, version: Int = 0) -> ContentBlock {
        .test(
            "hero",
            html: "<img src=\"\(server.url("/assets/hero.png").absoluteString)\"><a href=\"https://x.example\">Go</a>",
            version: version
        )
    }

    private func dataURL(_ data: Data) -> String {
        "data:image/png;base64,\(data.base64EncodedString())"
    }

    @Test("Assets are downloaded before the block shows, inlined into the document, and then served from the cache")
    func downloadsAndCaches() async throws {
        try await ContentServer.with { server in
            try await server.setAsset("/assets/hero.png", body: Self.red)
            let fixture = ContentBlockFixture()
            let manager = fixture.makeManager(ScriptedContentBlockSource([heroBlock(server)]))
            let surface = InstantHTMLSurface()
            let placeholder = await manager.loadedPlaceholder(surface: surface).placeholder
            #expect(placeholder.contentBlock?.id == "hero")
            #expect(surface.documents.last?.contains(dataURL(Self.red)) == true)
            #expect(surface.documents.last?.contains(server.url("/assets/hero.png").absoluteString) == false)
            await placeholder.reloadAndWait(manager)
            #expect(try await server.stats().requests["/assets/hero.png"] == 1)
        }
    }

    @Test("Prefetching downloads the assets too, so showing needs no download")
    func prefetchLoadsAssets() async throws {
        try await ContentServer.with { server in
            try await server.setAsset("/assets/hero.png", body: Self.red)
            let fixture = ContentBlockFixture()
            let manager = fixture.makeManager(ScriptedContentBlockSource([heroBlock(server)]))
            manager.prefetchPlaceholders(ids: ["home"])
            await manager.waitUntilIdle()
            #expect(try await server.stats().requests["/assets/hero.png"] == 1)
            try await server.setAsset("/assets/hero.png", body: Data(), status: 500)
            let surface = InstantHTMLSurface()
            let placeholder = await manager.loadedPlaceholder(surface: surface).placeholder
            #expect(placeholder.contentBlock?.id == "hero")
            #expect(surface.documents.last?.contains(dataURL(Self.red)) == true)
            #expect(try await server.stats().requests["/assets/hero.png"] == 1)
        }
    }

    @Test("A new content version downloads a changed image at the same URL; the same version keeps the cached one")
    func versionRefresh() async throws {
        try await ContentServer.with { server in
            try await server.setAsset("/assets/hero.png", body: Self.red)
            let fixture = ContentBlockFixture()
            let source = ScriptedContentBlockSource([heroBlock(server, version: 1)])
            let manager = fixture.makeManager(source)
            let surface = InstantHTMLSurface()
            let placeholder = await manager.loadedPlaceholder(surface: surface).placeholder
            try await server.setAsset("/assets/hero.png", body: Self.blue)
            await placeholder.reloadAndWait(manager)
            #expect(surface.documents.last?.contains(dataURL(Self.red)) == true)
            #expect(try await server.stats().requests["/assets/hero.png"] == 1)

            source.serve([heroBlock(server, version: 2)])
            manager.prefetchPlaceholders(ids: ["home"])
            await manager.waitUntilIdle()
            await placeholder.reloadAndWait(manager)
            #expect(surface.documents.last?.contains(dataURL(Self.blue)) == true)
            #expect(try await server.stats().requests["/assets/hero.png"] == 2)

            // The cache is on disk: the next launch shows version 2 without downloading it again.
            let relaunched = fixture.relaunch(source)
            let nextSurface = InstantHTMLSurface()
            let next = await relaunched.loadedPlaceholder(surface: nextSurface).placeholder
            #expect(nextSurface.documents.last?.contains(dataURL(Self.blue)) == true)
            #expect(try await server.stats().requests["/assets/hero.png"] == 2)
            withExtendedLifetime(next) {}
        }
    }

    @Test(
        "A failing asset download reports an error event that names the asset, and the placeholder is not ready",
        arguments: [404, 500]
    )
    func failingDownload(status: Int) async throws {
        try await ContentServer.with { server in
            if status != 404 { try await server.setAsset("/assets/hero.png", body: Self.red, status: status) }
            let fixture = ContentBlockFixture()
            let manager = fixture.makeManager(ScriptedContentBlockSource([heroBlock(server)]))
            let surface = InstantHTMLSurface()
            let (placeholder, callback) = await manager.loadedPlaceholder(surface: surface)
            let url = server.url("/assets/hero.png").absoluteString
            let message = "the asset \(url) could not be loaded: \(HTTPSourceStatus(statusCode: status))"
            #expect(callback.calls == [.error("home", blockID: "hero", message: message)])
            #expect(callback.readyValues == [false])
            #expect(surface.documents.isEmpty)
            #expect(placeholder.contentBlock == nil)
            let events = try fixture.blockEvents()
            #expect(events.map(\.type) == ["error"])
            #expect(events.first?.properties[ReportEventKey.message]?.stringValue == message)
        }
    }

    @Test("An asset larger than the limit is refused with an error")
    func oversizedAsset() async throws {
        try await ContentServer.with { server in
            try await server.setAsset("/assets/hero.png", body: Data(repeating: 7, count: 2_000))
            let fixture = ContentBlockFixture()
            var configuration = fixture.configuration()
            configuration.maxAssetBytes = 1_000
            let manager = fixture.makeManager(
                ScriptedContentBlockSource([heroBlock(server)]),
                configuration: configuration
            )
            let (placeholder, callback) = await manager.loadedPlaceholder()
            defer { withExtendedLifetime(placeholder) {} }
            guard case .error(_, "hero", let message) = callback.calls.first else {
                Issue.record("no error: \(callback.calls)")
                return
            }
            #expect(message.contains("the response is larger than 1000 bytes"), "\(message)")
        }
    }
}
