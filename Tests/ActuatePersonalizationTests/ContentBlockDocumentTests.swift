import Testing

@testable import ActuatePersonalization

@Suite("Content-block documents")
struct ContentBlockDocumentTests {
    static let block = ContentBlock.test(
        "hero",
        html: #"<script>var early = 1;</script><a href="https://shop.example.com/hero">Open hero</a>"#
    )

    @Test("the bridge is the first script, in <head> after the content security policy, and embeds the token")
    func bridgeComesFirst() throws {
        let token = BridgeToken.random()
        let document = try ContentBlockDocument.html(for: Self.block, assets: [:], token: token, maxBytes: .max)
        let policy = try #require(document.range(of: BridgeDocument.contentSecurityPolicy))
        let firstScript = try #require(document.range(of: "<script>"))
        let tokenPosition = try #require(document.range(of: token.text))
        let headEnd = try #require(document.range(of: "</head>"))
        let contentScript = try #require(document.range(of: "var early = 1;"))
        #expect(policy.lowerBound < firstScript.lowerBound)
        #expect(firstScript.lowerBound < tokenPosition.lowerBound)
        #expect(tokenPosition.lowerBound < headEnd.lowerBound, "the bridge must be in <head>")
        #expect(headEnd.lowerBound < contentScript.lowerBound, "the bridge must run before the block's scripts")
        #expect(BridgeTokenReader.token(in: document) == token.text)
        #expect(document.ranges(of: token.text).count == 1)
        #expect(document.contains(#"handlers["actuateContentBlock"]"#))
        #expect(document.contains("apply(removeElement, own, [])"), "the bridge must remove its own element")
    }

    @Test("a block's document and a content action's come from one builder: the same head, then their own bridge")
    func oneBuilder() throws {
        let token = BridgeToken("0123456789abcdef0123456789abcdef")
        let block = try ContentBlockDocument.html(for: Self.block, assets: [:], token: token, maxBytes: .max)
        let action = try #require(
            ContentAction(id: 1, contentType: "text/html", content: Self.block.html).contentHtmlDoc(
                bridge: .standard,
                token: token
            )
        )
        func head(_ document: String) throws -> Substring {
            try #require(document.range(of: "<script>").map { document[..<$0.lowerBound] })
        }
        #expect(try head(block) == head(action))
        #expect(block.contains(#"handlers["actuateContentBlock"]"#))
        #expect(action.contains(#"handlers["actuate"]"#))
        #expect(block.contains(#"post({ action: "close" })"#))
        #expect(action.contains(#"post({ status: "close""#))
    }

    @Test("each document a placeholder shows has a token of its own")
    func freshTokens() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource([Self.block]))
        let surface = InstantHTMLSurface()
        let (placeholder, _) = await manager.loadedPlaceholder(surface: surface)
        await placeholder.reloadAndWait(manager)
        let tokens = surface.documents.compactMap(BridgeTokenReader.token(in:))
        #expect(tokens.count == 2)
        #expect(Set(tokens).count == 2)
    }
}
