import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins
@testable import ActuateReporting
@testable import ActuateTesting

/// The tracker writes its files behind the caller: with its writer queue held, every call returns and no file
/// appears; once the writer runs, the files hold the newest snapshot.
@Suite("Tracker: files written behind the caller")
struct TrackerWriteBehindTests {
    private static func alwaysBanner() -> ScriptedDecisionSource {
        ScriptedDecisionSource(incremental: false, fallback: .result(TrackerResult(actions: [.banner()])))
    }

    private static func exists(_ fixture: TrackerFixture, _ name: String) -> Bool {
        FileManager.default.fileExists(atPath: fixture.directory.appending(name).path)
    }

    private static func savedState(_ fixture: TrackerFixture) throws -> TrackerState.Saved {
        let data = try Data(contentsOf: fixture.directory.appending("tracker-state.json"))
        return try JSONDecoder().decode(TrackerState.Saved.self, from: data)
    }

    @Test("navigate, getResult and a close return while the writer is held: the caller's thread writes no file")
    func callerWritesNothing() async throws {
        let fixture = TrackerFixture(source: Self.alwaysBanner())
        fixture.tracker.writerQueue.suspend()
        var resumed = false
        defer { if !resumed { fixture.tracker.writerQueue.resume() } }

        try fixture.tracker.navigate(documentName: "home")
        let result = try await fixture.tracker.getResult()
        try fixture.tracker.productViewed(productID: "sku-1")
        #expect(try #require(result.actions.first).reportClose(dontShowSessions: 3) == .sent)
        #expect(fixture.tracker.hiddenSessionsRemaining(actionID: 7) == 2, "the close holds in memory at once")
        #expect(!Self.exists(fixture, "tracker-state.json"), "no call wrote the state on the caller's thread")
        #expect(fixture.tracker.stateWriter.writeCount == 0)

        fixture.tracker.writerQueue.resume()
        resumed = true
        await fixture.tracker.waitForWrites()
        let saved = try Self.savedState(fixture)
        #expect(saved.profile.currentDocument == "home")
        #expect(saved.profile.viewedProducts == ["sku-1"])
        #expect(saved.dontShow.remainingSessions(7) == 2, "the close reached the file with the writer")
        #expect(fixture.errors.all.isEmpty)
        await fixture.tracker.waitForReports()
    }

    @Test("snapshots taken while a write is pending are coalesced: 50 page views, one write of the newest")
    func coalesces() async throws {
        let fixture = TrackerFixture(source: Self.alwaysBanner())
        fixture.tracker.writerQueue.suspend()
        var resumed = false
        // A suspended queue must be resumed before it is released.
        defer { if !resumed { fixture.tracker.writerQueue.resume() } }
        for page in 1...50 {
            try fixture.tracker.navigate(documentName: "page-\(page)")
        }
        fixture.tracker.writerQueue.resume()
        resumed = true
        await fixture.tracker.waitForWrites()
        #expect(fixture.tracker.stateWriter.writeCount == 1)
        #expect(try Self.savedState(fixture).profile.currentDocument == "page-50")
        await fixture.tracker.waitForReports()
    }

    @Test("a relaunch after waitForWrites reads the last snapshot: the close and the cached result")
    func relaunchReadsLastSnapshot() async throws {
        let source = ScriptedDecisionSource(fallback: .result(TrackerResult(actions: [.banner()])))
        let first = TrackerFixture(source: source)
        _ = try await first.tracker.getResult()
        try first.tracker.navigate(documentName: "cart")
        ContentAction.banner(tracker: first.tracker).reportClose(dontShowSessions: 2)
        await first.tracker.waitForReports()
        let second = await first.relaunched(source: Self.alwaysBanner())
        #expect(second.tracker.profile.currentDocument == "cart")
        #expect(try await second.tracker.getResult().actions.isEmpty, "closed for 2 sessions: hidden in the second")
        #expect(second.tracker.hiddenSessionsRemaining(actionID: 7) == 0)
        await second.tracker.waitForReports()
    }

    @Test("a tracker released with a snapshot pending loses nothing: the writer still writes it")
    func releasedTrackerStillWrites() async throws {
        let directory = TemporaryDirectory()
        var fixture: TrackerFixture? = TrackerFixture(source: Self.alwaysBanner(), directory: directory)
        let queue = try #require(fixture?.tracker.writerQueue)
        let writer = try #require(fixture?.tracker.stateWriter)
        queue.suspend()
        var resumed = false
        defer { if !resumed { queue.resume() } }
        try fixture?.tracker.navigate(documentName: "last-page")
        await fixture?.tracker.waitForReports()
        weak let released = fixture?.tracker
        fixture = nil
        #expect(released == nil, "the writer does not keep the tracker alive")
        queue.resume()
        resumed = true
        await writer.wait()
        let data = try Data(contentsOf: directory.appending("tracker-state.json"))
        #expect(try JSONDecoder().decode(TrackerState.Saved.self, from: data).profile.currentDocument == "last-page")
    }
}
