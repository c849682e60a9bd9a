import Actuate
import ActuatePersonalization
import Foundation
import Testing

@Suite("ContentBlockCarousel")
struct ContentBlockCarouselTests {
    static let blocks: [ContentBlock] = [
        .test("third", name: "Charlie", placeholders: ["carousel"], priority: 1),
        .test("first", name: "Alpha", placeholders: ["carousel"], priority: 5),
        .test("second", name: "Bravo", placeholders: ["carousel"], priority: 5),
    ]

    private func shownIds(_ callback: RecordingContentBlockCallback) -> [String] {
        callback.calls.compactMap { call -> String? in
            if case .shown(_, let id) = call { return id }
            return nil
        }
    }

    @Test("A carousel rotates through its blocks in display order on the injected clock, tracking each show")
    func rotates() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource(Self.blocks))
        let placeholder = ContentBlockPlaceholder(
            placeholderId: "carousel",
            deferredLoad: true,
            manager: manager,
            surface: InstantHTMLSurface(),
            carousel: ContentBlockCarousel()
        )
        let callback = RecordingContentBlockCallback.install(on: placeholder)
        await placeholder.reloadAndWait(manager)
        #expect(shownIds(callback) == ["first"])

        fixture.scheduler.advance(by: .milliseconds(2_999))
        await manager.waitUntilIdle()
        #expect(shownIds(callback) == ["first"])

        for _ in 0..<3 {
            fixture.scheduler.advance(by: .seconds(3))
            await manager.waitUntilIdle()
        }
        #expect(shownIds(callback) == ["first", "second", "third", "first"])
        #expect(
            try fixture.eventSummary() == ["executed:first", "executed:second", "executed:third", "executed:first"]
        )
    }

    @Test("maxCount limits the rotation to the first blocks in display order, and the interval can be set")
    func maxCountAndInterval() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource(Self.blocks))
        let placeholder = ContentBlockPlaceholder(
            placeholderId: "carousel",
            deferredLoad: true,
            manager: manager,
            surface: InstantHTMLSurface(),
            carousel: ContentBlockCarousel(maxCount: 2, interval: .seconds(10))
        )
        let callback = RecordingContentBlockCallback.install(on: placeholder)
        await placeholder.reloadAndWait(manager)
        fixture.scheduler.advance(by: .seconds(3))
        await manager.waitUntilIdle()
        #expect(shownIds(callback) == ["first"])
        for _ in 0..<3 {
            fixture.scheduler.advance(by: .seconds(10))
            await manager.waitUntilIdle()
        }
        #expect(shownIds(callback) == ["first", "second", "first", "second"])
    }

    @Test("Frequency rules apply on each turn: an onlyOnce block leaves the rotation after its show")
    func frequencyInRotation() async throws {
        let fixture = ContentBlockFixture()
        let blocks: [ContentBlock] = [
            .test("keep", name: "A", placeholders: ["carousel"]),
            .test("once", name: "B", placeholders: ["carousel"], frequency: .onlyOnce),
        ]
        let manager = fixture.makeManager(ScriptedContentBlockSource(blocks))
        let placeholder = ContentBlockPlaceholder(
            placeholderId: "carousel",
            deferredLoad: true,
            manager: manager,
            surface: InstantHTMLSurface(),
            carousel: ContentBlockCarousel()
        )
        let callback = RecordingContentBlockCallback.install(on: placeholder)
        await placeholder.reloadAndWait(manager)
        for _ in 0..<4 {
            fixture.scheduler.advance(by: .seconds(3))
            await manager.waitUntilIdle()
        }
        // With nothing else to rotate to, the carousel keeps "keep" on screen without counting new shows.
        #expect(shownIds(callback) == ["keep", "once", "keep"])
        #expect(placeholder.contentBlock?.id == "keep")
    }

    @Test("stop() ends the rotation")
    func stops() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource(Self.blocks))
        let placeholder = ContentBlockPlaceholder(
            placeholderId: "carousel",
            deferredLoad: true,
            manager: manager,
            surface: InstantHTMLSurface(),
            carousel: ContentBlockCarousel()
        )
        let callback = RecordingContentBlockCallback.install(on: placeholder)
        await placeholder.reloadAndWait(manager)
        placeholder.stop()
        fixture.scheduler.advance(by: .seconds(30))
        await manager.waitUntilIdle()
        #expect(shownIds(callback) == ["first"])
        #expect(fixture.scheduler.pendingCount == 0)
    }
}
