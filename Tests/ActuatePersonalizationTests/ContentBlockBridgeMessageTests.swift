import Testing

@testable import ActuatePersonalization

@Suite("Content-block bridge messages")
struct ContentBlockBridgeMessageTests {
    private static let token = BridgeToken.random()

    private func parse(_ text: String) throws(ContentBlockError) -> ContentBlockBridgeMessage {
        try ContentBlockBridgeMessage(parsing: text, allowedSchemes: ["https"], token: Self.token)
    }

    private static let forged = ContentBlockError.invalidMessage(
        reason: "it does not carry this page's token: a script of the page posted it, not the bridge"
    )

    @Test("a click and a close with the document's token are accepted")
    func rightToken() throws {
        let click = #"{"action":"click","link":"https://shop.example.com/hero","text":" Open "}"#
        #expect(
            try parse(BridgeTokenReader.signed(click, token: Self.token.text))
                == .click(ContentBlockLink(url: "https://shop.example.com/hero", text: "Open"))
        )
        #expect(try parse(BridgeTokenReader.signed(#"{"action":"close"}"#, token: Self.token.text)) == .close)
    }

    @Test(
        "a message without the document's token is refused as forged, before its action is looked at",
        arguments: [
            #"{"action":"close"}"#,
            #"{"action":"click","link":"https://shop.example.com/hero"}"#,
            #"{"action":"click","link":"javascript:alert(1)"}"#,
            #"{"action":"explode"}"#,
            #"{"action":"close","token":7}"#,
            #"{"action":"close","token":null}"#,
        ]
    )
    func missingToken(message: String) {
        #expect(throws: Self.forged) { try parse(message) }
    }

    @Test("a message with another token is refused as forged")
    func wrongToken() {
        let close = #"{"action":"close"}"#
        let changed = String(Self.token.text.dropLast()) + (Self.token.text.hasSuffix("a") ? "b" : "a")
        for carried in [BridgeToken.random().text, changed, String(Self.token.text.dropLast()), "", "fuzz"] {
            #expect(throws: Self.forged, "\(carried)") { try parse(BridgeTokenReader.signed(close, token: carried)) }
        }
    }

    @Test("what is not a JSON object is refused as such, token or not")
    func notAnObject() {
        #expect(throws: ContentBlockError.invalidMessage(reason: "not a JSON object: [1]")) { try parse("[1]") }
    }
}
