import Actuate
import Foundation
import Testing

@testable import ActuatePersonalization

@Suite("ContentBlockCarousel")
struct ContentBlockCarouselTests {
    static let blocks: [ContentBlock] = [
        .test("third", name: "Charlie", placeholders: ["carousel"], priority: 1),
        .test("first", name: "Alpha", placeholders: ["carousel"], priority: 5),
        .test("second", name: "Bravo", placeholders: ["carousel"], priority: 5),
    ]

    @Test("A carousel rotates through its blocks in display order on the injected clock, tracking each show")
    func rotates() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource(Self.blocks))
        let (placeholder, callback) = await manager.loadedPlaceholder(
            "carousel",
            surface: InstantHTMLSurface(),
            carousel: ContentBlockCarousel()
        )
        #expect(callback.shownBlockIDs == ["first"])

        await fixture.advance(by: .milliseconds(2_999), waitingFor: manager)
        #expect(callback.shownBlockIDs == ["first"])

        await fixture.advance(by: .seconds(3), times: 3, waitingFor: manager)
        #expect(callback.shownBlockIDs == ["first", "second", "third", "first"])
        #expect(
            try fixture.eventSummary() == ["executed:first", "executed:second", "executed:third", "executed:first"]
        )
        withExtendedLifetime(placeholder) {}
    }

    @Test("maxCount limits the rotation to the first blocks in display order, and the interval can be set")
    func maxCountAndInterval() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource(Self.blocks))
        let (placeholder, callback) = await manager.loadedPlaceholder(
            "carousel",
            surface: InstantHTMLSurface(),
            carousel: ContentBlockCarousel(maxCount: 2, interval: .seconds(10))
        )
        await fixture.advance(by: .seconds(3), waitingFor: manager)
        #expect(callback.shownBlockIDs == ["first"])
        await fixture.advance(by: .seconds(10), times: 3, waitingFor: manager)
        #expect(callback.shownBlockIDs == ["first", "second", "first", "second"])
        withExtendedLifetime(placeholder) {}
    }

    @Test("Frequency rules apply on each turn: an onlyOnce block leaves the rotation after its show")
    func frequencyInRotation() async throws {
        let fixture = ContentBlockFixture()
        let blocks: [ContentBlock] = [
            .test("keep", name: "A", placeholders: ["carousel"]),
            .test("once", name: "B", placeholders: ["carousel"], frequency: .onlyOnce),
        ]
        let manager = fixture.makeManager(ScriptedContentBlockSource(blocks))
        let (placeholder, callback) = await manager.loadedPlaceholder(
            "carousel",
            surface: InstantHTMLSurface(),
            carousel: ContentBlockCarousel()
        )
        await fixture.advance(by: .seconds(3), times: 4, waitingFor: manager)
        // With nothing else to rotate to, the carousel keeps "keep" on screen without counting new shows.
        #expect(callback.shownBlockIDs == ["keep", "once", "keep"])
        #expect(placeholder.contentBlock?.id == "keep")
    }

    @Test("stop() ends the rotation")
    func stops() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource(Self.blocks))
        let (placeholder, callback) = await manager.loadedPlaceholder(
            "carousel",
            surface: InstantHTMLSurface(),
            carousel: ContentBlockCarousel()
        )
        placeholder.stop()
        await fixture.advance(by: .seconds(30), waitingFor: manager)
        #expect(callback.shownBlockIDs == ["first"])
        #expect(fixture.scheduler.pendingCount == 0)
    }
}
