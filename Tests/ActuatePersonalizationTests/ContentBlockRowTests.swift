import Foundation
import Synchronization
import Testing

@testable import ActuatePersonalization

@Suite("ContentBlockRow")
struct ContentBlockRowTests {
    @Test("A row is named by its index path or its own id")
    func rowNames() {
        #expect(ContentBlockRow(placeholderID: "feed", indexPath: IndexPath(indexes: [1, 3])).rowID == "1-3")
        #expect(ContentBlockRow(placeholderID: "feed", rowID: "order-9").description == "feed@order-9")
    }

    @Test("A row's placeholder is prepared once, and the refresh callback fires when its content or height changes")
    func preparedRows() async throws {
        let fixture = ContentBlockFixture()
        let source = ScriptedContentBlockSource([
            .test("first", placeholders: ["feed"], priority: 2), .test("second", placeholders: ["feed"], priority: 1),
        ])
        let manager = fixture.makeManager(source)
        let refreshed = Mutex<[ContentBlockRow]>([])
        manager.refreshCallback = { row in refreshed.withLock { $0.append(row) } }
        let row = ContentBlockRow(placeholderID: "feed", indexPath: IndexPath(indexes: [0, 4]))
        let surface = InstantHTMLSurface(result: .loaded(size: HTMLContentSize(width: 320, height: 88)))
        let placeholder = manager.preparePlaceholder(for: row, surface: surface)
        await manager.waitUntilIdle()
        #expect(manager.preparePlaceholder(for: row, surface: surface) === placeholder)
        await manager.waitUntilIdle()
        #expect(source.requests.count == 1)
        #expect(surface.documents.count == 1)
        #expect(refreshed.withLock { $0 } == [row])
        let usage = try #require(manager.usedContentBlock(for: row))
        #expect(usage.contentBlock.id == "first")
        #expect(usage.size?.height == 88)

        surface.finishLoads(with: .loaded(size: HTMLContentSize(width: 320, height: 140)))
        surface.postFromBridge(#"{"action": "close"}"#)
        await manager.waitUntilIdle()
        #expect(refreshed.withLock { $0 } == [row, row])
        #expect(manager.usedContentBlock(for: row)?.contentBlock.id == "second")
        #expect(manager.usedContentBlock(for: row)?.size?.height == 140)

        surface.postFromBridge(#"{"action": "close"}"#)
        await manager.waitUntilIdle()
        #expect(refreshed.withLock { $0 } == [row, row, row])
        #expect(manager.usedContentBlock(for: row) == nil)
    }

    @Test("forgetRows() drops every row's placeholder")
    func forgetRows() async {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource([.test("first", placeholders: ["feed"])]))
        let row = ContentBlockRow(placeholderID: "feed", rowID: "a")
        let first = manager.preparePlaceholder(for: row, surface: InstantHTMLSurface())
        await manager.waitUntilIdle()
        #expect(manager.usedContentBlock(for: row) != nil)
        manager.forgetRows()
        #expect(manager.usedContentBlock(for: row) == nil)
        #expect(manager.preparePlaceholder(for: row, surface: InstantHTMLSurface()) !== first)
        await manager.waitUntilIdle()
    }
}
