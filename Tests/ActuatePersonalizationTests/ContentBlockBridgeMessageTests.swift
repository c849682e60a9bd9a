import Testing

@testable import ActuatePersonalization

@Suite("Content-block bridge messages")
struct ContentBlockBridgeMessageTests {
    private static let token = BridgeToken.random()
    private static let bridge = ContentBlockDocument.bridge(allowing: ["https"])

    private func parse(_ text: String) -> Result<ContentBlockBridgeMessage, BridgeMessageError> {
        BridgeMessage.parseBlockMessage(text, bridge: Self.bridge, token: Self.token)
    }

    private func parseSigned(_ text: String) -> Result<ContentBlockBridgeMessage, BridgeMessageError> {
        parse(BridgeTokenReader.signed(text, token: Self.token.text))
    }

    @Test("a click and a close with the document's token are accepted")
    func rightToken() {
        let click = #"{"action":"click","link":"https://shop.example.com/hero","text":" Open "}"#
        #expect(
            parseSigned(click) == .success(.click(ContentBlockLink(url: "https://shop.example.com/hero", text: "Open")))
        )
        #expect(parseSigned(#"{"action":"close"}"#) == .success(.close))
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
        #expect(parse(message) == .failure(.forged))
    }

    @Test("a message with another token is refused as forged")
    func wrongToken() {
        let close = #"{"action":"close"}"#
        let changed = String(Self.token.text.dropLast()) + (Self.token.text.hasSuffix("a") ? "b" : "a")
        for carried in [BridgeToken.random().text, changed, String(Self.token.text.dropLast()), "", "fuzz"] {
            #expect(parse(BridgeTokenReader.signed(close, token: carried)) == .failure(.forged), "\(carried)")
        }
    }

    @Test("what is not a JSON object, or has no action, is refused as such, token or not")
    func notAnObject() {
        #expect(parse("[1]") == .failure(.notAnObject))
        #expect(parse(#"{"link":"https://a.example"}"#) == .failure(.missingField("action")))
    }

    @Test(
        "signed messages that say something unusable are refused with the bridge's one error",
        arguments: [
            (#"{"action":"explode"}"#, BridgeMessageError.unknownAction("explode")),
            (#"{"action":"click"}"#, .invalidArgument(status: "click", reason: "a click without a link")),
            (#"{"action":"click","link":""}"#, .invalidArgument(status: "click", reason: "a click without a link")),
            (#"{"action":"click","link":"javascript:alert(1)"}"#, .disallowedHref("javascript:alert(1)")),
            (#"{"action":"click","link":"/relative"}"#, .disallowedHref("/relative")),
            (#"{"action":"click","link":"http://a.example"}"#, .disallowedHref("http://a.example")),
        ]
    )
    func unusable(message: String, expected: BridgeMessageError) {
        #expect(parseSigned(message) == .failure(expected))
    }

    @Test("content blocks and content actions share one size limit, 8,192 bytes, and one link length")
    func oneLimit() {
        #expect(Self.bridge.maximumMessageBytes == BridgeMessage.defaultMaximumBytes)
        #expect(ContentBridge.standard.maximumMessageBytes == BridgeMessage.defaultMaximumBytes)
        let padding = String(repeating: "p", count: 8_192)
        let huge = #"{"action":"close","pad":"\#(padding)"}"#
        #expect(parse(huge) == .failure(.oversizedMessage(bytes: huge.utf8.count, limit: 8_192)))
        let action = #"{"status":"close","href":"","arg":"","pad":"\#(padding)"}"#
        #expect(
            BridgeMessage.parse(action, actionID: 1, bridge: .standard, token: Self.token)
                == .failure(.oversizedMessage(bytes: action.utf8.count, limit: 8_192))
        )
        let longLink = "https://shop.example.com/" + String(repeating: "a", count: 2_100)
        #expect(
            parseSigned(#"{"action":"click","link":"\#(longLink)"}"#)
                == .failure(.oversizedField(name: "link", length: longLink.count, limit: 2_048))
        )
        // A click of the longest link with its longest text in four-byte characters still fits.
        let maxLink = "https://shop.example.com/" + String(repeating: "a", count: 2_048 - 25)
        let text = String(repeating: "😀", count: 500)
        let click = parseSigned(#"{"action":"click","link":"\#(maxLink)","text":"\#(text)"}"#)
        #expect(click == .success(.click(ContentBlockLink(url: maxLink, text: text))))
    }

    @Test("the placeholder reports a refused message as the content block's invalidMessage, with the bridge's reason")
    func reportedReason() {
        #expect(
            ContentBlockError.invalidMessage(reason: BridgeMessageError.forged.reason).description
                == "the content block's page posted an unusable message: it does not carry this page's token: a "
                + "script of the page posted it, not the bridge"
        )
    }
}
