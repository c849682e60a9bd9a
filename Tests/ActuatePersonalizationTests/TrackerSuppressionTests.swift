import ActuateReporting
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins

@Suite("Tracker: don't show for N sessions")
struct TrackerSuppressionTests {
    private static func alwaysBanner() -> ScriptedDecisionSource {
        ScriptedDecisionSource(incremental: false, fallback: .result(TrackerResult(actions: [.banner()])))
    }

    private func shownIDs(_ fixture: TrackerFixture) async throws -> [Int] {
        try await fixture.tracker.getResult().actions.map(\.id)
    }

    @Test("closed for 3 sessions: hidden for the rest of this one and the next 2, then back")
    func closeForThreeSessions() async throws {
        let fixture = TrackerFixture(source: Self.alwaysBanner())
        let tracker = fixture.tracker
        let banner = try #require(try await tracker.getResult().actions.first)
        banner.reportExecuted()
        #expect(banner.reportClose(dontShowSessions: 3) == .sent)
        #expect(try await shownIDs(fixture) == [], "hidden for the rest of the session")
        #expect(tracker.hiddenSessionsRemaining(actionID: 7) == 2)
        tracker.startNewSession()
        #expect(try await shownIDs(fixture) == [])
        #expect(tracker.hiddenSessionsRemaining(actionID: 7) == 1)
        // The third session starts by itself, 90 minutes after the second started.
        fixture.harness.scheduler.advance(by: .seconds(90 * 60))
        try tracker.navigate(documentName: "home")
        await tracker.waitForReports()
        #expect(try await shownIDs(fixture) == [])
        #expect(tracker.hiddenSessionsRemaining(actionID: 7) == 0)
        tracker.startNewSession()
        #expect(try await shownIDs(fixture) == [7])
        #expect(tracker.hiddenSessionsRemaining(actionID: 7) == nil)
    }

    @Test("a suppressed action is reported as dont-show, once per page view")
    func dontShowEvents() async throws {
        let fixture = TrackerFixture(source: Self.alwaysBanner())
        let banner = try #require(try await fixture.tracker.getResult().actions.first)
        banner.reportClose(dontShowSessions: 2)
        _ = try await fixture.tracker.getResult()
        _ = try await fixture.tracker.getResult()
        try fixture.tracker.navigate(documentName: "cart")
        _ = try await fixture.tracker.getResult()
        let events = try await fixture.events()
        #expect(events.map(\.type) == ["close", "dont-show", "behaviour", "dont-show"])
        #expect(events[1].contentReference == .contentAction(id: 7, name: "Spring banner"))
        #expect(events[1].properties["dontShowSessions"] == 1)
        #expect(fixture.harness.timeline.snapshot().map(\.actionName).contains("Suppress Content"))
    }

    @Test("closing without a count hides the action for the rest of the session only")
    func closeForNow() async throws {
        let fixture = TrackerFixture(source: Self.alwaysBanner())
        try #require(try await fixture.tracker.getResult().actions.first).reportClose()
        #expect(try await shownIDs(fixture) == [])
        fixture.tracker.startNewSession()
        #expect(try await shownIDs(fixture) == [7])
    }

    @Test("the countdown survives relaunches: each launch is a new session")
    func survivesRelaunch() async throws {
        let first = TrackerFixture(source: Self.alwaysBanner())
        try #require(try await first.tracker.getResult().actions.first).reportClose(dontShowSessions: 3)
        await first.tracker.waitForReports()
        let second = await first.relaunched(source: Self.alwaysBanner())
        #expect(try await shownIDs(second) == [])
        #expect(second.tracker.hiddenSessionsRemaining(actionID: 7) == 1)
        let third = await second.relaunched(source: Self.alwaysBanner())
        #expect(try await shownIDs(third) == [])
        let fourth = await third.relaunched(source: Self.alwaysBanner())
        #expect(try await shownIDs(fourth) == [7])
        #expect(fourth.tracker.sessionCount == 4)
    }

    @Test("a close that starts the first session does not count that session down")
    func closeBeforeAnySession() async throws {
        let fixture = TrackerFixture(source: Self.alwaysBanner())
        #expect(fixture.reporter.currentSession == nil)
        ContentAction.banner(tracker: fixture.tracker).reportClose(dontShowSessions: 2)
        await fixture.tracker.waitForReports()
        #expect(fixture.reporter.currentSession != nil)
        #expect(fixture.tracker.hiddenSessionsRemaining(actionID: 7) == 1)
        fixture.tracker.startNewSession()
        #expect(fixture.tracker.hiddenSessionsRemaining(actionID: 7) == 0)
        #expect(try await shownIDs(fixture) == [])
    }
}
