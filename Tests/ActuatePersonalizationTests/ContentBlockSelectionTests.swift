import ActuatePersonalizationTesting
import Foundation
import Testing

@testable import ActuatePersonalization
@testable import ActuateTesting

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
        let (placeholder, callback) = await manager.loadedPlaceholder(surface: InstantHTMLSurface())
        #expect(placeholder.contentBlock?.id == "alpha")

        // Closing each block in turn walks the same order: priority, then name.
        let surface = SimulatedHTMLSurface()
        let (walker, walked) = await manager.loadedPlaceholder(surface: surface)
        for _ in 0..<3 {
            try surface.close()
            await manager.waitUntilIdle()
        }
        #expect(walked.shownBlockIDs == ["alpha", "zed", "low"])
        #expect(walked.calls.last == .noMessage("home"))
        #expect(callback.calls == [.shown("home", blockID: "alpha")])
        withExtendedLifetime(walker) {}
    }

    @Test(
        "Equal priorities and names fall back to the id, so the choice never depends on source order",
        arguments: [["b", "a", "c"], ["c", "b", "a"], ["a", "c", "b"]]
    )
    func stableForTies(order: [String]) async throws {
        let fixture = ContentBlockFixture()
        let blocks = order.map { ContentBlock.test($0, name: "Same", priority: 3) }
        let manager = fixture.makeManager(ScriptedContentBlockSource(blocks))
        let placeholder = await manager.loadedPlaceholder(surface: InstantHTMLSurface()).placeholder
        #expect(placeholder.contentBlock?.id == "a")
    }
}
