import ActuatePersonalization
import Foundation
import Testing

@Suite("ContentBlockSelection")
struct ContentBlockSelectionTests {
    static let blocks: [ContentBlock] = [
        .test("low", name: "Aardvark", priority: 1),
        .test("zed", name: "Zed", priority: 5),
        .test("alpha", name: "Alpha", priority: 5),
        .test("elsewhere", name: "Anywhere", placeholders: ["cart"], priority: 99),
    ]

    @Test("The highest priority wins, then the name in ascending order")
    func priorityThenName() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource(Self.blocks))
        let placeholder = ContentBlockPlaceholder(
            placeholderId: "home",
            deferredLoad: true,
            manager: manager,
            surface: InstantHTMLSurface()
        )
        let callback = RecordingContentBlockCallback.install(on: placeholder)
        await placeholder.reloadAndWait(manager)
        #expect(placeholder.contentBlock?.id == "alpha")

        // Closing each block in turn walks the same order: priority, then name.
        let surface = InstantHTMLSurface()
        let walker = ContentBlockPlaceholder(
            placeholderId: "home",
            deferredLoad: true,
            manager: manager,
            surface: surface
        )
        let walked = RecordingContentBlockCallback.install(on: walker)
        await walker.reloadAndWait(manager)
        for _ in 0..<3 {
            surface.post(#"{"action": "close"}"#)
            await manager.waitUntilIdle()
        }
        let shown = walked.calls.compactMap { call -> String? in
            if case .shown(_, let id) = call { return id }
            return nil
        }
        #expect(shown == ["alpha", "zed", "low"])
        #expect(walked.calls.last == .noMessage("home"))
        #expect(callback.calls == [.shown("home", blockId: "alpha")])
    }

    @Test("Equal priorities and names fall back to the id, so the choice never depends on source order")
    func stableForTies() async throws {
        for order in [["b", "a", "c"], ["c", "b", "a"], ["a", "c", "b"]] {
            let fixture = ContentBlockFixture()
            let blocks = order.map { ContentBlock.test($0, name: "Same", priority: 3) }
            let manager = fixture.makeManager(ScriptedContentBlockSource(blocks))
            let placeholder = ContentBlockPlaceholder(
                placeholderId: "home",
                deferredLoad: true,
                manager: manager,
                surface: InstantHTMLSurface()
            )
            await placeholder.reloadAndWait(manager)
            #expect(placeholder.contentBlock?.id == "a")
        }
    }
}
