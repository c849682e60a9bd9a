import ActuatePersonalizationTesting
import Foundation
import Synchronization
import Testing

@testable import ActuatePersonalization
@testable import ActuateTesting

/// Exponea's rows of tables and lists: `prepareInAppContentBlockView(placeholderID:indexPath:)` is called from
/// `cellForRowAt`, and a table view reuses its cells, so the view a row is given changes as the user scrolls.
/// A reused cell must show the block of the row it is configured for now, never another row's.
@Suite("ContentBlockManager rows in reused cells")
struct ContentBlockReusedCellTests {
    private static let short = HTMLContentSize(width: 320, height: 100)
    private static let tall = HTMLContentSize(width: 320, height: 200)

    private static func linkTexts(_ surface: SimulatedHTMLSurface) -> [String] {
        surface.links.map(\.text)
    }

    @Test("Two rows whose cells are swapped, as a table view reuses cells, each draw into the cell given now")
    func swappedCells() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(
            ScriptedContentBlockSource([
                .test("a1", placeholders: ["feed-a"], priority: 2), .test("a2", placeholders: ["feed-a"], priority: 1),
                .test("b1", placeholders: ["feed-b"]),
            ])
        )
        let refreshed = Mutex<[ContentBlockRow]>([])
        manager.refreshCallback = { row in refreshed.withLock { $0.append(row) } }
        let rowA = ContentBlockRow(placeholderID: "feed-a", indexPath: IndexPath(indexes: [0, 0]))
        let rowB = ContentBlockRow(placeholderID: "feed-b", indexPath: IndexPath(indexes: [0, 1]))
        let cell1 = SimulatedHTMLSurface(loadResult: .loaded(size: Self.short))
        let cell2 = SimulatedHTMLSurface(loadResult: .loaded(size: Self.tall))

        let placeholderA = manager.preparePlaceholder(for: rowA, surface: cell1)
        let placeholderB = manager.preparePlaceholder(for: rowB, surface: cell2)
        await manager.waitUntilIdle()
        #expect(Self.linkTexts(cell1) == ["Open a1"])
        #expect(Self.linkTexts(cell2) == ["Open b1"])
        refreshed.withLock { $0 = [] }

        // The table reuses the cells the other way round.
        #expect(manager.preparePlaceholder(for: rowA, surface: cell2) === placeholderA)
        #expect(manager.preparePlaceholder(for: rowB, surface: cell1) === placeholderB)
        await manager.waitUntilIdle()
        #expect(Self.linkTexts(cell2) == ["Open a1"], "cell 2 shows \(cell2.text)")
        #expect(Self.linkTexts(cell1) == ["Open b1"], "cell 1 shows \(cell1.text)")
        // The row's height follows the surface it draws in now, and the rows are told to reload.
        #expect(manager.usedContentBlock(for: rowA)?.size == Self.tall)
        #expect(manager.usedContentBlock(for: rowB)?.size == Self.short)
        #expect(Set(refreshed.withLock { $0 }) == [rowA, rowB])

        // A click in a cell counts for the block that cell shows, in its row's placeholder.
        try cell2.clickLink(text: "Open a1")
        // Closing row A's block moves row A to its next block, in the cell it has now; row B's cell is untouched.
        let cell1Documents = cell1.documents.count
        try cell2.close()
        await manager.waitUntilIdle()
        #expect(Self.linkTexts(cell2) == ["Open a2"])
        #expect(cell1.documents.count == cell1Documents)
        #expect(Self.linkTexts(cell1) == ["Open b1"])
        #expect(manager.usedContentBlock(for: rowA)?.contentBlock.id == "a2")
        #expect(manager.usedContentBlock(for: rowB)?.contentBlock.id == "b1")

        // Drawing a row's block again in another cell is not a new impression: one `executed` per block shown.
        #expect(try fixture.eventSummary() == ["executed:a1", "executed:b1", "target:a1", "close:a1", "executed:a2"])
        let click = try #require(try fixture.blockEvents().first { $0.type == "target" })
        #expect(click.properties[ContentBlockEventKey.placeholder]?.stringValue == "feed-a")
    }

    @Test("A row that takes another row's cell blanks it when it has no block, and the old row stops drawing there")
    func cellTakenByAnotherRow() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource([.test("a1", placeholders: ["feed-a"])]))
        let rowA = ContentBlockRow(placeholderID: "feed-a", rowID: "order-1")
        let rowEmpty = ContentBlockRow(placeholderID: "feed-empty", rowID: "order-2")
        let cell = SimulatedHTMLSurface()

        let placeholderA = manager.preparePlaceholder(for: rowA, surface: cell)
        await manager.waitUntilIdle()
        #expect(Self.linkTexts(cell) == ["Open a1"])

        // The cell scrolls out and is reused for a row that has no block: it must not keep showing row A's.
        _ = manager.preparePlaceholder(for: rowEmpty, surface: cell)
        await manager.waitUntilIdle()
        #expect(manager.usedContentBlock(for: rowEmpty) == nil)
        #expect(cell.links.isEmpty, "the reused cell shows \(cell.text)")
        #expect(cell.text == "")

        // Row A keeps its block (for its height), but no longer draws into the cell, whatever it does.
        let documents = cell.documents.count
        #expect(manager.usedContentBlock(for: rowA)?.contentBlock.id == "a1")
        await placeholderA.reloadAndWait(manager)
        #expect(cell.documents.count == documents)

        // Scrolled back into view in a cell of its own, row A draws its block there.
        let other = SimulatedHTMLSurface()
        _ = manager.preparePlaceholder(for: rowA, surface: other)
        await manager.waitUntilIdle()
        #expect(Self.linkTexts(other) == ["Open a1"])
        #expect(cell.documents.count == documents)
    }

    @Test("A row that takes a cell while its block is still loading draws into that cell, not the first one")
    func rebindWhileLoading() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource([.test("a1", placeholders: ["feed-a"])]))
        let rowA = ContentBlockRow(placeholderID: "feed-a", rowID: "a")
        // The first cell never finishes loading: the row is given another cell before its block is shown.
        let slow = SimulatedHTMLSurface(loadResult: nil)
        _ = manager.preparePlaceholder(for: rowA, surface: slow)
        await manager.waitUntilIdle()
        #expect(manager.usedContentBlock(for: rowA) == nil)
        #expect(slow.documents.count == 1)

        let cell = SimulatedHTMLSurface()
        _ = manager.preparePlaceholder(for: rowA, surface: cell)
        await manager.waitUntilIdle()
        #expect(Self.linkTexts(cell) == ["Open a1"])
        // The first cell finishing late changes nothing: the row draws into the cell it has now.
        slow.finishLoad()
        await manager.waitUntilIdle()
        #expect(manager.usedContentBlock(for: rowA)?.size == HTMLContentSize(width: 320, height: 120))
        #expect(try fixture.eventSummary() == ["executed:a1"])
    }
}
