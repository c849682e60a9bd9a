import ActuatePersonalizationTesting
import ActuateReporting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins
@testable import ActuateTesting

@Suite("ContentBlockPlaceholder")
struct ContentBlockPlaceholderTests {
    @Test("A deferred placeholder loads nothing until reload(), then shows its block")
    func deferredLoad() async throws {
        let fixture = ContentBlockFixture()
        let source = ScriptedContentBlockSource([.test("hero")])
        let manager = fixture.makeManager(source)
        let surface = InstantHTMLSurface()
        let (placeholder, callback) = manager.deferredPlaceholder(surface: surface)
        await manager.waitUntilIdle()
        #expect(source.requests.isEmpty)
        #expect(surface.documents.isEmpty)
        #expect(callback.calls.isEmpty)

        await placeholder.reloadAndWait(manager)
        #expect(source.requests == [["home"]])
        #expect(callback.calls == [.shown("home", blockID: "hero")])
        #expect(placeholder.contentBlock?.id == "hero")
        #expect(try fixture.eventSummary() == ["executed:hero"])
    }

    @Test("A placeholder that is not deferred starts loading when it is created")
    func immediateLoad() async throws {
        let fixture = ContentBlockFixture()
        let source = ScriptedContentBlockSource([.test("hero")])
        let manager = fixture.makeManager(source)
        let surface = InstantHTMLSurface()
        let placeholder = ContentBlockPlaceholder(placeholderID: "home", manager: manager, surface: surface)
        await manager.waitUntilIdle()
        #expect(source.requests == [["home"]])
        #expect(placeholder.contentBlock?.id == "hero")
        #expect(surface.documents.count == 1)
        #expect(surface.documents[0].contains("<p>hero</p>"))
        #expect(surface.documents[0].contains(#"handlers["actuateContentBlock"]"#))
        #expect(surface.latestToken != nil)
        #expect(surface.documents[0].contains("<meta name=\"viewport\""))
    }

    @Test("The ready callback gets true with the measured size when a block is shown")
    func readyWithSize() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource([.test("hero")]))
        let size = HTMLContentSize(width: 375, height: 212)
        let placeholder = ContentBlockPlaceholder(
            placeholderID: "home",
            deferredLoad: true,
            manager: manager,
            surface: InstantHTMLSurface(result: .loaded(size: size))
        )
        let callback = RecordingContentBlockCallback.install(on: placeholder)
        await placeholder.reloadAndWait(manager)
        #expect(callback.readyValues == [true])
        #expect(placeholder.contentSize == size)
    }

    @Test("A placeholder no block lists reports no message and not ready, and tracks nothing")
    func missingPlaceholder() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource([.test("hero", placeholders: ["home"])]))
        let surface = InstantHTMLSurface()
        let (placeholder, callback) = await manager.loadedPlaceholder("nowhere", surface: surface)
        #expect(callback.calls == [.noMessage("nowhere")])
        #expect(callback.readyValues == [false])
        #expect(placeholder.contentBlock == nil)
        #expect(surface.documents.isEmpty)
        #expect(try fixture.blockEvents().isEmpty)
    }

    @Test("A block counts as shown only once the surface has loaded it")
    func shownOnlyWhenLoaded() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource([.test("hero", frequency: .onlyOnce)]))
        let surface = RecordingHTMLSurface()
        let (placeholder, callback) = await manager.loadedPlaceholder(surface: surface)
        #expect(surface.loadedDocuments.count == 1)
        #expect(callback.calls.isEmpty)
        #expect(callback.readyValues.isEmpty)
        #expect(placeholder.contentBlock == nil)
        #expect(try fixture.blockEvents().isEmpty)

        surface.finishLoad(.loaded(size: HTMLContentSize(width: 300, height: 90)))
        await manager.waitUntilIdle()
        #expect(callback.calls == [.shown("home", blockID: "hero")])
        #expect(callback.readyValues == [true])
        #expect(placeholder.contentSize == HTMLContentSize(width: 300, height: 90))
        #expect(try fixture.eventSummary() == ["executed:hero"])
    }

    @Test("A surface that fails to load reports an error event and not ready")
    func surfaceFailure() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource([.test("hero")]))
        let placeholder = ContentBlockPlaceholder(
            placeholderID: "home",
            deferredLoad: true,
            manager: manager,
            surface: InstantHTMLSurface(result: .failed(message: "the web process crashed"))
        )
        let callback = RecordingContentBlockCallback.install(on: placeholder)
        await placeholder.reloadAndWait(manager)
        #expect(callback.calls == [.error("home", blockID: "hero", message: "the web process crashed")])
        #expect(callback.readyValues == [false])
        let events = try fixture.blockEvents()
        #expect(events.map(\.type) == ["error"])
        #expect(events.first?.properties[ReportEventKey.message] == "the web process crashed")
    }

    @Test("A click in the page calls onActionClicked with text and link, tracks it, and opens the link")
    func actionClicked() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource([.test("hero")]))
        let surface = SimulatedHTMLSurface()
        let (placeholder, callback) = await manager.loadedPlaceholder(surface: surface)
        try surface.clickLink(text: "Open hero")
        await manager.waitUntilIdle()
        #expect(
            callback.calls.last
                == .actionClicked("home", blockID: "hero", url: "https://shop.example.com/hero", text: "Open hero")
        )
        #expect(fixture.opener.opened == [URL(string: "https://shop.example.com/hero")!])
        let click = try #require(try fixture.blockEvents().last)
        #expect(click.type == "target")
        #expect(click.properties[ReportEventKey.href] == "https://shop.example.com/hero")
        #expect(click.properties[ContentBlockEventKey.text] == "Open hero")
        #expect(placeholder.contentBlock?.id == "hero")
    }

    @Test("A close in the page calls onCloseClicked, tracks it as the user's, and shows the next block")
    func closeClicked() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(
            ScriptedContentBlockSource([.test("first", priority: 2), .test("second", priority: 1)])
        )
        let surface = SimulatedHTMLSurface()
        let (placeholder, callback) = await manager.loadedPlaceholder(surface: surface)
        try surface.close()
        await manager.waitUntilIdle()
        #expect(
            callback.calls == [
                .shown("home", blockID: "first"), .closeClicked("home", blockID: "first"),
                .shown("home", blockID: "second"),
            ]
        )
        let close = try #require(try fixture.blockEvents().first { $0.type == "close" })
        #expect(close.properties[ContentBlockEventKey.interaction] == true)
        #expect(try fixture.eventSummary() == ["executed:first", "close:first", "executed:second"])

        try surface.close()
        await manager.waitUntilIdle()
        #expect(callback.calls.last == .noMessage("home"))
        #expect(callback.readyValues == [true, true, false])
        #expect(placeholder.contentBlock == nil)
    }

    @Test(
        "A custom callback that wraps the default keeps its tracking; one that does not call through replaces it",
        arguments: [true, false]
    )
    func wrappedCallback(callThrough: Bool) async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource([.test("hero")]))
        let surface = SimulatedHTMLSurface()
        let (placeholder, callback) = await manager.loadedPlaceholder(surface: surface, callThrough: callThrough)
        try surface.clickLink(text: "Open hero")
        await manager.waitUntilIdle()
        #expect(callback.calls.count == 2)
        #expect(try fixture.eventSummary() == (callThrough ? ["executed:hero", "target:hero"] : []))
        #expect(fixture.opener.opened.count == (callThrough ? 1 : 0))
        withExtendedLifetime(placeholder) {}
    }

    @Test("invokeLinkClick(linkURL:) reports a custom view's click with the link's text from the block")
    func invokeLinkClick() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource([.test("hero")]))
        let (placeholder, callback) = await manager.loadedPlaceholder()
        #expect(callback.calls == [.shown("home", blockID: "hero")])
        #expect(callback.readyValues == [true])
        #expect(placeholder.contentSize == nil)

        placeholder.invokeLinkClick(linkURL: "https://shop.example.com/hero")
        await manager.waitUntilIdle()
        #expect(
            callback.calls.last
                == .actionClicked("home", blockID: "hero", url: "https://shop.example.com/hero", text: "Open hero")
        )
        #expect(try fixture.eventSummary() == ["executed:hero", "target:hero"])

        placeholder.invokeLinkClick(linkURL: "javascript:alert(1)")
        await manager.waitUntilIdle()
        guard case .error("home", "hero", let message) = callback.calls.last else {
            Issue.record("a javascript: link was not refused: \(callback.calls)")
            return
        }
        #expect(message.contains("the scheme \"javascript\", which is not allowed"))
        #expect(fixture.opener.opened == [URL(string: "https://shop.example.com/hero")!])
    }

    @Test("invokeLinkClick(linkURL:) with no block shown reports an error that names the method called")
    func invokeLinkClickWithoutBlock() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource([.test("hero")]))
        let (placeholder, callback) = manager.deferredPlaceholder()
        placeholder.invokeLinkClick(linkURL: "https://shop.example.com/hero")
        await manager.waitUntilIdle()
        #expect(
            callback.calls == [
                .error(
                    "home",
                    blockID: nil,
                    message: "invokeLinkClick(linkURL:text:) was called while no content block is shown"
                )
            ]
        )
        #expect(fixture.opener.opened.isEmpty)
    }

    @Test(
        "Unusable bridge messages become error events and leave the block shown",
        arguments: [
            (#"{"action": "explode"}"#, "unknown action"),
            (#"{"action": "click", "link": "javascript:alert(1)"}"#, "not allowed"),
            (#"{"action": "click", "link": "data:text/html,<b>x</b>"}"#, "not allowed"),
            (#"{"action": "click"}"#, "without a link"),
            (#"[1, 2]"#, "not a JSON object"),
            (#"{"action": "click", "link": "https://x.example/"#, "not a JSON object"),
        ]
    )
    func badMessages(message: String, reason: String) async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource([.test("hero")]))
        let surface = InstantHTMLSurface()
        let (placeholder, callback) = await manager.loadedPlaceholder(surface: surface)
        surface.postFromBridge(message)
        await manager.waitUntilIdle()
        let error = try #require(try fixture.blockEvents().last)
        #expect(error.type == "error")
        #expect(error.properties[ReportEventKey.message]?.stringValue?.contains(reason) == true, "\(error)")
        #expect(fixture.opener.opened.isEmpty)
        #expect(placeholder.contentBlock?.id == "hero")
        #expect(callback.readyValues == [true])
    }

    @Test("Each document shown gets its own token; a message without it, or with an earlier one's, is refused")
    func forgedMessages() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource([.test("hero")]))
        let surface = InstantHTMLSurface()
        let (placeholder, callback) = await manager.loadedPlaceholder(surface: surface)
        let earlierToken = try #require(surface.latestToken)
        await placeholder.reloadAndWait(manager)
        let token = try #require(surface.latestToken)
        #expect(surface.documents.count == 2)
        #expect(token != earlierToken, "two documents must not share a token")
        let click = #"{"action": "click", "link": "https://shop.example.com/hero", "text": "Open hero"}"#
        surface.post(click)
        surface.post(BridgeTokenReader.signed(click, token: earlierToken))
        surface.post(BridgeTokenReader.signed(#"{"action": "close"}"#, token: String(repeating: "0", count: 32)))
        await manager.waitUntilIdle()
        let reason = ContentBlockError.invalidMessage(
            reason: "it does not carry this page's token: a script of the page posted it, not the bridge"
        )
        let forged = RecordingContentBlockCallback.Call.error("home", blockID: "hero", message: reason.description)
        #expect(Array(callback.calls.suffix(2)) == [.shown("home", blockID: "hero"), forged])
        #expect(fixture.opener.opened.isEmpty)
        #expect(placeholder.contentBlock?.id == "hero")
        // The first refused message is an error event; the others of the same page view are counted.
        #expect(try fixture.eventSummary() == ["executed:hero", "executed:hero", "error:hero"])
        #expect(placeholder.droppedErrorCount == 2)

        surface.post(BridgeTokenReader.signed(click, token: token))
        await manager.waitUntilIdle()
        #expect(
            callback.calls.last
                == .actionClicked("home", blockID: "hero", url: "https://shop.example.com/hero", text: "Open hero")
        )
        #expect(fixture.opener.opened == [URL(string: "https://shop.example.com/hero")!])
    }

    @Test("dismiss() tracks a close that was not the user's, and does not count as an interaction")
    func dismissIsNotAnInteraction() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(
            ScriptedContentBlockSource([.test("hero", frequency: .untilVisitorInteracts)])
        )
        let (placeholder, callback) = await manager.loadedPlaceholder(surface: InstantHTMLSurface())
        placeholder.dismiss()
        await manager.waitUntilIdle()
        #expect(callback.readyValues == [true, false])
        let close = try #require(try fixture.blockEvents().last)
        #expect(close.type == "close")
        #expect(close.properties[ContentBlockEventKey.interaction] == false)

        await placeholder.reloadAndWait(manager)
        #expect(placeholder.contentBlock?.id == "hero")
    }
}
