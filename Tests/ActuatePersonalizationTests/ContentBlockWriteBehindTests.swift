import ActuatePersonalizationTesting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins
@testable import ActuateReporting
@testable import ActuateTesting

/// Issue 45, point 1: content-block show, click and close do no file write or sync on the caller's queue. The
/// display history is written on the configuration's work queue: with that queue held, every call returns (and
/// the click reaches its callback) while the history file stays as it was; once the queue runs, it changes.
@Suite("Content-block history written off the caller's queue")
struct ContentBlockWriteBehindTests {
    private static func history(_ fixture: ContentBlockFixture) -> Data? {
        try? Data(contentsOf: fixture.directory.appendingPathComponent(ContentBlockHistoryStore.fileName))
    }

    /// Waits until the callback queue has run what was queued on it so far.
    private static func drainCallbacks(_ fixture: ContentBlockFixture) async {
        await withCheckedContinuation { continuation in
            fixture.callbackQueue.async { continuation.resume() }
        }
    }

    @Test("an onlyOnce show: reload returns with the work queue held, and the history is written after")
    func show() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(ScriptedContentBlockSource([.test("hero", frequency: .onlyOnce)]))
        let (placeholder, callback) = manager.deferredPlaceholder(surface: InstantHTMLSurface())
        fixture.workQueue.suspend()
        var resumed = false
        // A suspended queue must be resumed before it is released.
        defer { if !resumed { fixture.workQueue.resume() } }
        placeholder.reload()
        #expect(Self.history(fixture) == nil, "the caller's reload wrote nothing")

        fixture.workQueue.resume()
        resumed = true
        await manager.waitUntilIdle()
        #expect(callback.calls == [.shown("home", blockID: "hero")])
        let written = try #require(Self.history(fixture))
        #expect(String(decoding: written, as: UTF8.self).contains("hero"), "the show is in the history")
    }

    @Test("a click and a close return and reach their callbacks with the work queue held; the history changes after")
    func clickAndClose() async throws {
        let fixture = ContentBlockFixture()
        let manager = fixture.makeManager(
            ScriptedContentBlockSource([.test("hero", frequency: .untilVisitorInteracts)])
        )
        let (placeholder, callback) = await manager.loadedPlaceholder(surface: InstantHTMLSurface())
        let afterShow = try #require(Self.history(fixture))

        fixture.workQueue.suspend()
        var resumed = false
        defer { if !resumed { fixture.workQueue.resume() } }
        placeholder.invokeLinkClick(linkURL: "https://shop.example.com/hero")
        placeholder.dismiss()
        await Self.drainCallbacks(fixture)
        #expect(
            callback.calls.contains(
                .actionClicked("home", blockID: "hero", url: "https://shop.example.com/hero", text: "Open hero")
            )
        )
        #expect(Self.history(fixture) == afterShow, "neither the caller nor the callback queue wrote the history")

        fixture.workQueue.resume()
        resumed = true
        await manager.waitUntilIdle()
        #expect(Self.history(fixture) != afterShow, "the interaction reached the history on the work queue")
        #expect(try fixture.eventSummary() == ["executed:hero", "target:hero", "close:hero"])
    }
}
