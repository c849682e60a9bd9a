import Testing

@testable import ActuatePersonalization

@Suite("Bridge messages")
struct BridgeMessageTests {
    private func parse(_ text: String, bridge: ContentBridge = .standard) -> Result<ActionClicked, BridgeMessageError> {
        BridgeMessage.parse(text, actionId: 7, bridge: bridge)
    }

    @Test("each status becomes an ActionClicked for the rendered action, whatever id the page claims")
    func validMessages() {
        #expect(
            parse(#"{"status":"target","href":"https://shop.example.com/a","arg":"","actionId":99}"#)
                == .success(ActionClicked(actionId: 7, href: "https://shop.example.com/a", status: .target))
        )
        #expect(
            parse(#"{"status":"close","href":"","arg":"2"}"#)
                == .success(ActionClicked(actionId: 7, status: .close, arg: "2"))
        )
        #expect(
            parse(#"{"status":"close","href":"","arg":""}"#) == .success(ActionClicked(actionId: 7, status: .close))
        )
        #expect(
            parse(#"{"status":"product","href":"mailto:a@example.com","arg":"sku-1"}"#)
                == .success(ActionClicked(actionId: 7, href: "mailto:a@example.com", status: .product, arg: "sku-1"))
        )
        #expect(
            parse(#"{"status":"article","href":"","arg":"a-9"}"#)
                == .success(ActionClicked(actionId: 7, status: .article, arg: "a-9"))
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
        let huge = #"{"status":"target","href":"","arg":"","pad":""# + String(repeating: "p", count: 5_000) + #""}"#
        #expect(parse(huge) == .failure(.oversizedMessage(bytes: huge.utf8.count, limit: 4_096)))
    }

    @Test("a bridge can allow other schemes")
    func customSchemes() {
        let bridge = ContentBridge(allowedSchemes: ["shop"])
        #expect(
            parse(#"{"status":"target","href":"shop://product/1","arg":""}"#, bridge: bridge)
                == .success(ActionClicked(actionId: 7, href: "shop://product/1", status: .target))
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
