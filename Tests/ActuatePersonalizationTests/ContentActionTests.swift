import Foundation
import Testing

@testable import ActuatePersonalization

@Suite("ContentAction content")
struct ContentActionTests {
    private func json(_ content: String, type: String? = "application/json") -> ContentAction {
        ContentAction(id: 1, name: "Recommendations", contentType: type, content: content)
    }

    @Test("contentJsonArray parses an array of string-to-string objects")
    func parsesJSONArray() {
        let action = json(#"[{"id": "sku-1", "title": "Red shoes"}, {"id": "sku-2", "title": "Blue hat"}]"#)
        #expect(
            action.contentJsonArray == [["id": "sku-1", "title": "Red shoes"], ["id": "sku-2", "title": "Blue hat"]]
        )
        #expect(json("[]").contentJsonArray == [])
    }

    @Test("contentJsonArray accepts MIME parameters and any case")
    func mimeParameters() {
        #expect(json(#"[{"a": "b"}]"#, type: "Application/JSON; charset=utf-8").contentJsonArray == [["a": "b"]])
    }

    @Test(
        "contentJsonArray is nil for anything but an array of string objects",
        arguments: [
            #"[{"id": "sku-1""#,  // truncated
            "not json at all",
            #"{"id": "sku-1"}"#,  // an object where an array was expected
            #"[{"id": 1}]"#,  // a number
            #"[{"id": true}]"#,  // a Boolean
            #"[{"id": null}]"#,  // null
            #"[{"id": {"nested": "x"}}]"#,  // an object
            #"[{"id": ["x"]}]"#,  // an array
            #"["sku-1", "sku-2"]"#,  // strings, not objects
            #"[[{"id": "x"}]]"#,  // nested arrays
            "",
        ]
    )
    func rejectsOtherJSON(content: String) {
        #expect(json(content).contentJsonArray == nil)
    }

    @Test("contentJsonArray is nil when the type is not application/json, even for valid JSON")
    func otherTypesHaveNoJSON() {
        #expect(json(#"[{"a": "b"}]"#, type: "text/html").contentJsonArray == nil)
        #expect(json(#"[{"a": "b"}]"#, type: nil).contentJsonArray == nil)
        #expect(json(#"[{"a": "b"}]"#, type: "application/jsonp").contentJsonArray == nil)
    }

    @Test("contentHtmlDoc is nil for anything but text/html")
    func htmlOnlyForHTML() {
        #expect(ContentAction(id: 1, contentType: "application/json", content: "[]").contentHtmlDoc == nil)
        #expect(ContentAction(id: 1, contentType: "application/javascript", content: "alert(1)").contentHtmlDoc == nil)
        #expect(ContentAction(id: 1, contentType: nil, content: "<b>x</b>").contentHtmlDoc == nil)
        #expect(
            ContentAction(id: 1, contentType: "text/html; charset=UTF-8", content: "<b>x</b>").contentHtmlDoc != nil
        )
    }

    @Test("contentHtmlDoc wraps the content in a document with viewport, navigation guard and bridge")
    func htmlDocument() throws {
        let document = try #require(ContentAction.banner().contentHtmlDoc)
        #expect(document.hasPrefix("<!DOCTYPE html>\n<html>\n<head>"))
        #expect(document.contains(#"<meta name="viewport" content="width=device-width, initial-scale=1"#))
        #expect(document.contains(#"apply(listen, frame, ["click", onClick, true]);"#))
        #expect(document.contains("guard(win);"))
        #expect(document.contains("apply(cancel, event, [])"))
        #expect(document.contains(#"var handler = handlers ? handlers["actuate"] : null;"#))
        #expect(document.contains("<body>\n<a href=\"https://shop.example.com/spring\">Spring sale</a>\n</body>"))
        #expect(document.hasSuffix("</html>"))
    }

    @Test("images load only as data: URLs unless the bridge allows https images; nothing else is loosened")
    func imagePolicy() throws {
        let strict = try #require(ContentAction.banner().contentHtmlDoc)
        #expect(strict.contains("img-src data:; font-src data:;"))
        #expect(!strict.contains("img-src data: https:"))
        var bridge = ContentBridge.standard
        bridge.allowsHTTPSImages = true
        let remote = try #require(ContentAction.banner().contentHtmlDoc(bridge: bridge))
        #expect(remote.contains("img-src data: https:; font-src data:;"))
        #expect(remote.contains("default-src 'none'") && remote.contains("connect-src 'none'"))
    }

    @Test("the bridge is the document's first script, in its head, and carries a token of its own")
    func bridgeComesFirst() throws {
        let action = ContentAction(
            id: 1,
            contentType: "text/html",
            content: #"<script>var early = 1;</script><a href="https://shop.example.com/">Shop</a>"#
        )
        let document = try #require(action.contentHtmlDoc)
        let token = try #require(BridgeTokenReader.token(in: document))
        #expect(token.count == 32)
        let headEnd = try #require(document.range(of: "</head>"))
        let firstScript = try #require(document.range(of: "<script>"))
        let tokenPosition = try #require(document.range(of: token))
        let contentScript = try #require(document.range(of: "var early = 1;"))
        #expect(firstScript.lowerBound < tokenPosition.lowerBound)
        #expect(tokenPosition.lowerBound < headEnd.lowerBound, "the bridge must be in <head>")
        #expect(headEnd.lowerBound < contentScript.lowerBound, "the bridge must run before the content's scripts")
        #expect(document.ranges(of: token).count == 1)
        #expect(document.contains("apply(removeElement, own, [])"), "the bridge must remove its own element")
    }

    @Test("each document gets a fresh token")
    func freshTokens() throws {
        let action = ContentAction.banner()
        let documents = try (0..<3).map { _ in try #require(action.contentHtmlDoc) }
        let tokens = documents.compactMap(BridgeTokenReader.token(in:))
        #expect(tokens.count == 3)
        #expect(Set(tokens).count == 3)
        let custom = try #require(action.contentHtmlDoc(bridge: .standard))
        #expect(!tokens.contains(try #require(BridgeTokenReader.token(in: custom))))
    }

    @Test("the bridge's handler name and allowed schemes come from ContentBridge, safely encoded")
    func customBridge() throws {
        let bridge = ContentBridge(handlerName: "shop_bridge", allowedSchemes: ["HTTPS", "shop"])
        let document = try #require(ContentAction.banner().contentHtmlDoc(bridge: bridge))
        #expect(document.contains(#"handlers["shop_bridge"]"#))
        #expect(document.contains(#"var schemes = ["https:","shop:"];"#))
        #expect(ContentBridge(handlerName: "x\"</script><script>alert(1)//").handlerName == "actuate")
        #expect(ContentBridge(handlerName: "").handlerName == "actuate")
    }

    @Test("equality, hashing and coding use the content fields, not the tracker")
    func equalityIgnoresTracker() throws {
        let fixture = TrackerFixture()
        let attached = ContentAction.banner(tracker: fixture.tracker)
        let detached = ContentAction.banner()
        #expect(attached == detached)
        #expect(attached.hashValue == detached.hashValue)
        let decoded = try JSONDecoder().decode(ContentAction.self, from: try JSONEncoder().encode(attached))
        #expect(decoded == detached)
        #expect(decoded.tracker == nil)
        #expect(attached.attached(to: nil).tracker == nil)
        #expect(detached.description == #"action:7 "Spring banner" (text/html)"#)
    }
}
