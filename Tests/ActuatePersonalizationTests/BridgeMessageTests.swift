import Testing

@testable import ActuatePersonalization

@Suite("Bridge messages")
struct BridgeMessageTests {
    /// The token of the document the messages come from.
    private static let token = BridgeToken.random()

    /// Parses `text` as the bridge of a document with ``token`` posts it: with the token added.
    private func parse(_ text: String, bridge: ContentBridge = .standard) -> Result<ActionClicked, BridgeMessageError> {
        parseAsPosted(BridgeTokenReader.signed(text, token: Self.token.text), bridge: bridge)
    }

    /// Parses `text` exactly as it is, as a message a script of the page posts itself.
    private func parseAsPosted(
        _ text: String,
        bridge: ContentBridge = .standard
    ) -> Result<ActionClicked, BridgeMessageError> {
        BridgeMessage.parse(text, actionID: 7, bridge: bridge, token: Self.token)
    }

    @Test("a message with the document's token is accepted; without it, or with another token, it is forged")
    func token() {
        let click = #"{"status":"target","href":"https://shop.example.com/a","arg":""}"#
        #expect(
            parseAsPosted(BridgeTokenReader.signed(click, token: Self.token.text))
                == .success(ActionClicked(actionID: 7, href: "https://shop.example.com/a", status: .target))
        )
        let other = BridgeToken.random().text
        let lastDigitChanged = String(Self.token.text.dropLast()) + (Self.token.text.hasSuffix("0") ? "1" : "0")
        for carried in [other, lastDigitChanged, String(Self.token.text.dropLast()), Self.token.text + "0", ""] {
            #expect(parseAsPosted(BridgeTokenReader.signed(click, token: carried)) == .failure(.forged), "\(carried)")
        }
        #expect(parseAsPosted(click) == .failure(.forged))
        let numberToken = #"{"status":"target","href":"","arg":"","token":7}"#
        #expect(parseAsPosted(numberToken) == .failure(.forged))
        #expect(
            BridgeMessageError.forged.description
                == "Bridge message ignored: it does not carry this page's token: a script of the page posted it, "
                + "not the bridge."
        )
    }

    @Test("the token is checked once the message is an object with its string fields, before anything else")
    func tokenCheckOrder() {
        #expect(parseAsPosted(#"{"status":"hijack","href":"","arg":""}"#) == .failure(.forged))
        #expect(parseAsPosted(#"{"status":"target","href":"javascript:alert(1)","arg":""}"#) == .failure(.forged))
        #expect(parseAsPosted(#"{"status":"close","href":"","arg":"forever"}"#) == .failure(.forged))
        #expect(parseAsPosted(#"{"status":"target","href":""}"#) == .failure(.missingField("arg")))
        #expect(parseAsPosted("[]") == .failure(.notAnObject))
    }

    @Test("each status becomes an ActionClicked for the rendered action, whatever id the page claims")
    func validMessages() {
        #expect(
            parse(#"{"status":"target","href":"https://shop.example.com/a","arg":"","actionId":99}"#)
                == .success(ActionClicked(actionID: 7, href: "https://shop.example.com/a", status: .target))
        )
        #expect(
            parse(#"{"status":"close","href":"","arg":"2"}"#)
                == .success(ActionClicked(actionID: 7, status: .close, arg: "2"))
        )
        #expect(
            parse(#"{"status":"close","href":"","arg":""}"#) == .success(ActionClicked(actionID: 7, status: .close))
        )
        #expect(
            parse(#"{"status":"product","href":"mailto:a@example.com","arg":"sku-1"}"#)
                == .success(ActionClicked(actionID: 7, href: "mailto:a@example.com", status: .product, arg: "sku-1"))
        )
        #expect(
            parse(#"{"status":"article","href":"","arg":"a-9"}"#)
                == .success(ActionClicked(actionID: 7, status: .article, arg: "a-9"))
        )
    }

    @Test(
        "malformed messages are refused with the reason",
        arguments: [
            (#"{"status":"purchase","href":"","arg":""}"#, BridgeMessageError.unknownStatus("purchase")),
            (#"{"status":"executed","href":"","arg":""}"#, .unknownStatus("executed")),
            (#"{"status":"error","href":"","arg":"boom"}"#, .unknownStatus("error")),
            (#"{"href":"","arg":""}"#, .missingField("status")),
            (#"{"status":"target","arg":""}"#, .missingField("href")),
            (#"{"status":"target","href":""}"#, .missingField("arg")),
            (#"{"status":7,"href":"","arg":""}"#, .missingField("status")),
            (#"{"status":"close","href":"","arg":2}"#, .missingField("arg")),
            (#"["target","",""]"#, .notAnObject),
            (#""target""#, .notAnObject),
            ("{not json", .notAnObject),
            ("", .notAnObject),
            (#"{"status":"target","href":"javascript:alert(1)","arg":""}"#, .disallowedHref("javascript:alert(1)")),
            (#"{"status":"target","href":"JavaScript:alert(1)","arg":""}"#, .disallowedHref("JavaScript:alert(1)")),
            (#"{"status":"target","href":" javascript:alert(1)","arg":""}"#, .disallowedHref(" javascript:alert(1)")),
            (
                #"{"status":"target","href":"data:text/html,<b>x</b>","arg":""}"#,
                .disallowedHref("data:text/html,<b>x</b>")
            ),
            (#"{"status":"target","href":"file:///etc/passwd","arg":""}"#, .disallowedHref("file:///etc/passwd")),
            (#"{"status":"target","href":"/relative","arg":""}"#, .disallowedHref("/relative")),
            (
                #"{"status":"close","href":"","arg":"forever"}"#,
                .invalidArgument(status: "close", reason: "the session count is not a whole number")
            ),
            (
                #"{"status":"product","href":"","arg":"  "}"#,
                .invalidArgument(status: "product", reason: "the id is empty")
            ),
            (
                #"{"status":"article","href":"","arg":""}"#,
                .invalidArgument(status: "article", reason: "the id is empty")
            ),
        ]
    )
    func malformedMessages(text: String, expected: BridgeMessageError) {
        #expect(parse(text) == .failure(expected))
    }

    @Test("oversized messages and fields are refused")
    func oversized() {
        let longArg = String(repeating: "x", count: 257)
        #expect(
            parse(#"{"status":"product","href":"","arg":"\#(longArg)"}"#)
                == .failure(.oversizedField(name: "arg", length: 257, limit: 256))
        )
        let longHref = "https://shop.example.com/" + String(repeating: "a", count: 2_100)
        #expect(
            parse(#"{"status":"target","href":"\#(longHref)","arg":""}"#)
                == .failure(.oversizedField(name: "href", length: longHref.count, limit: 2_048))
        )
        let huge = #"{"status":"target","href":"","arg":"","pad":""# + String(repeating: "p", count: 9_000) + #""}"#
        #expect(parseAsPosted(huge) == .failure(.oversizedMessage(bytes: huge.utf8.count, limit: 8_192)))
    }

    @Test("a bridge can allow other schemes")
    func customSchemes() {
        let bridge = ContentBridge(allowedSchemes: ["shop"])
        #expect(
            parse(#"{"status":"target","href":"shop://product/1","arg":""}"#, bridge: bridge)
                == .success(ActionClicked(actionID: 7, href: "shop://product/1", status: .target))
        )
        #expect(
            parse(#"{"status":"target","href":"https://x.example","arg":""}"#, bridge: bridge)
                == .failure(.disallowedHref("https://x.example"))
        )
    }

    @Test("error descriptions cut hostile values short")
    func descriptions() {
        let long = String(repeating: "z", count: 500)
        let text = BridgeMessageError.unknownStatus(long).description
        #expect(text.count < 150)
        #expect(text.hasPrefix("Bridge message ignored: unknown status \"zzz"))
    }
}
