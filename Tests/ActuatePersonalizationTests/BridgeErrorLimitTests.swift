import ActuateReporting
import Foundation
import Testing

@testable import ActuatePersonalization

/// A page that floods the bridge with bad messages gets one `error` event per page view; the rest are counted, so
/// the event store keeps room for the events that matter.
@Suite("Refused bridge messages are reported once per page view and counted")
struct BridgeErrorLimitTests {
    /// 1,000 messages no bridge sent: text that is not JSON, arrays, forged and guessed tokens, and (carrying the
    /// page's token) messages the app refuses all the same.
    static func flood(token: String?, valid: String) -> [String] {
        let bad = [
            "not json",
            "[]",
            "[1, 2, 3]",
            "null",
            #"{"action": "close", "token": "00000000000000000000000000000000"}"#,
            #"{"status": "target", "href": "", "arg": "", "token": "forged"}"#,
            BridgeTokenReader.signed(#"{"action": "explode", "status": "explode"}"#, token: token),
            BridgeTokenReader.signed(valid, token: String(repeating: "f", count: 32)),
        ]
        return (0..<1_000).map { bad[$0 % bad.count] }
    }

    @Test("a content block: one error callback and event per page view, the other 999 counted")
    func contentBlock() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource([.test("hero", name: "Spring hero")]))
        let surface = InstantHTMLSurface()
        let (placeholder, callback) = await manager.loadedPlaceholder(surface: surface)
        let click = #"{"action": "click", "link": "https://shop.example.com/hero", "text": "Open"}"#
        for message in Self.flood(token: surface.latestToken, valid: click) { surface.post(message) }
        surface.postFromBridge(click)
        await manager.waitUntilIdle()

        let errors = callback.calls.filter { if case .error = $0 { true } else { false } }
        #expect(errors.count == 1)
        #expect(placeholder.droppedErrorCount == 999)
        #expect(try fixture.eventSummary() == ["executed:hero", "error:hero", "target:hero"])

        // A new document is a new page view: its first refused message is reported again.
        await placeholder.reloadAndWait(manager)
        surface.post("not json either")
        surface.post("[]")
        await manager.waitUntilIdle()
        #expect(
            try fixture.eventSummary() == ["executed:hero", "error:hero", "target:hero", "executed:hero", "error:hero"]
        )
        #expect(placeholder.droppedErrorCount == 1_000)
    }

    @Test("a content action: one error event per page view, the other 999 counted by the tracker")
    func contentAction() async throws {
        let rendered = RenderedContentAction(
            id: 4,
            name: "Banner",
            content: "<a href=\"https://shop.example.com/\">Shop</a>"
        )
        rendered.surface.finishLoad()
        let click = #"{"status": "target", "href": "https://shop.example.com/", "arg": ""}"#
        for message in Self.flood(token: rendered.token, valid: click) { rendered.surface.post(message) }
        rendered.surface.postFromBridge(click)
        #expect(try await rendered.fixture.eventTypes() == ["executed", "error", "target"])
        #expect(rendered.fixture.tracker.droppedErrorCount == 999)
        #expect(rendered.clicks == [ActionClicked(actionID: 4, href: "https://shop.example.com/", status: .target)])

        // A navigate starts a new page view.
        try rendered.fixture.tracker.navigate(documentName: "next")
        rendered.surface.post("[]")
        rendered.surface.post("[]")
        let types = try await rendered.fixture.eventTypes().filter { ["executed", "error", "target"].contains($0) }
        #expect(types == ["executed", "error", "target", "error"])
        #expect(rendered.fixture.tracker.droppedErrorCount == 1_000)
    }
}
