import ActuateReporting
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins

/// Personyze's reference, `PersonyzeAction.reportClose(dontShowSessions:)`: "If provided, Personyze will not show
/// (return from PersonyzeTracker.inst.getResult()) this action this number of sessions. By default the session is
/// 1.5 hours, but you can force start of new session by calling PersonyzeTracker.inst.startNewSession()."
@Suite("Tracker: Personyze's don't-show count and its 1.5-hour sessions")
struct TrackerSessionRuleTests {
    private static func alwaysBanner() -> ScriptedDecisionSource {
        ScriptedDecisionSource(incremental: false, fallback: .result(TrackerResult(actions: [.banner()])))
    }

    private static func shown(_ tracker: Tracker) async throws -> Bool {
        try await tracker.getResult().actions.map(\.id) == [7]
    }

    /// Closes the banner in the first session with `close`, then counts the sessions, from that one, in which
    /// `getResult()` leaves it out.
    private static func sessionsHidden(after close: (ContentAction) -> ContentReportResult) async throws -> Int {
        let fixture = TrackerFixture(source: alwaysBanner())
        let banner = try #require(try await fixture.tracker.getResult().actions.first)
        #expect(close(banner) == .sent)
        var hidden = 0
        while try await !shown(fixture.tracker), hidden < 10 {
            hidden += 1
            fixture.tracker.startNewSession()
        }
        return hidden
    }

    @Test(
        "\"will not show … this action this number of sessions\": the session it is closed in is the first",
        arguments: [(0, 1), (1, 1), (2, 2), (3, 3), (-4, 1)]
    )
    func sessionsCountedFromTheClosingOne(count: Int, sessionsHidden: Int) async throws {
        let hidden = try await Self.sessionsHidden { $0.reportClose(dontShowSessions: count) }
        #expect(hidden == sessionsHidden, "reportClose(dontShowSessions: \(count))")
    }

    @Test("a close without a count hides the action for the rest of the session only")
    func closeWithoutCount() async throws {
        #expect(try await Self.sessionsHidden { $0.reportClose() } == 1)
    }

    @Test("a bridge close `data-actuate-close=\"2\"` counts the same way: this session and the next")
    func bridgeCloseCountsTheSame() async throws {
        let hidden = try await Self.sessionsHidden { banner in
            guard let tracker = banner.tracker else { return .noTracker }
            return tracker.reportActionClicked(ActionClicked(actionID: banner.id, href: "", status: .close, arg: "2"))
        }
        #expect(hidden == 2)
    }

    @Test("closed for 2 sessions: hidden now and in the next session, shown in the third")
    func closedForTwoSessions() async throws {
        let fixture = TrackerFixture(source: Self.alwaysBanner())
        let tracker = fixture.tracker
        let banner = try #require(try await tracker.getResult().actions.first)
        banner.reportClose(dontShowSessions: 2)
        #expect(try await !Self.shown(tracker), "hidden for the rest of the session it was closed in")
        #expect(tracker.hiddenSessionsRemaining(actionID: 7) == 1)
        tracker.startNewSession()
        #expect(try await !Self.shown(tracker), "hidden in the second session")
        #expect(tracker.hiddenSessionsRemaining(actionID: 7) == 0)
        tracker.startNewSession()
        #expect(try await Self.shown(tracker), "back in the third session")
        #expect(tracker.hiddenSessionsRemaining(actionID: 7) == nil)
    }

    @Test("the largest count from outside does not overflow", arguments: [Int.max, Int.min])
    func extremeCounts(count: Int) async throws {
        let fixture = TrackerFixture(source: Self.alwaysBanner())
        let banner = try #require(try await fixture.tracker.getResult().actions.first)
        #expect(banner.reportClose(dontShowSessions: count) == .sent)
        #expect(fixture.tracker.hiddenSessionsRemaining(actionID: 7) == (count > 0 ? count - 1 : 0))
    }

    @Test("\"By default the session is 1.5 hours\": 30 minutes without a call do not end it")
    func inactivityDoesNotEndASessionByDefault() async throws {
        let fixture = TrackerFixture(source: Self.alwaysBanner())
        let tracker = fixture.tracker
        try #require(try await tracker.getResult().actions.first).reportClose(dontShowSessions: 2)
        await tracker.waitForReports()
        let sessions = tracker.sessionCount
        let visit = try #require(fixture.reporter.currentSession?.id)
        fixture.harness.scheduler.advance(by: .seconds(45 * 60))
        try tracker.navigate(documentName: "home")
        #expect(try await !Self.shown(tracker))
        #expect(tracker.sessionCount == sessions, "still the session the banner was closed in")
        #expect(tracker.hiddenSessionsRemaining(actionID: 7) == 1)
        await tracker.waitForReports()
        // The reporter's sessions (visits, for statistics) keep their own policy, which ends them after inactivity.
        #expect(fixture.reporter.currentSession?.id != visit)
    }

    @Test("\"By default the session is 1.5 hours\": from its start, however busy the user is")
    func sessionEndsNinetyMinutesAfterItsStart() async throws {
        let fixture = TrackerFixture(source: Self.alwaysBanner())
        let tracker = fixture.tracker
        try #require(try await tracker.getResult().actions.first).reportClose(dontShowSessions: 2)
        let sessions = tracker.sessionCount
        for _ in 1...8 {
            fixture.harness.scheduler.advance(by: .seconds(11 * 60))  // 88 minutes in all, a call every 11
            try tracker.navigate(documentName: "home")
        }
        #expect(tracker.sessionCount == sessions)
        #expect(tracker.hiddenSessionsRemaining(actionID: 7) == 1)
        fixture.harness.scheduler.advance(by: .seconds(2 * 60))  // 90 minutes after the start
        try tracker.navigate(documentName: "home")
        #expect(tracker.sessionCount == sessions + 1)
        #expect(tracker.hiddenSessionsRemaining(actionID: 7) == 0)
        #expect(try await !Self.shown(tracker), "the second of its 2 sessions")
        fixture.harness.scheduler.advance(by: .seconds(90 * 60))
        #expect(try await Self.shown(tracker), "back in the third")
        #expect(tracker.sessionCount == sessions + 2)
    }

    @Test("the tracker's default session rule is Personyze's: 90 minutes from the start, no inactivity limit")
    func defaultPolicy() {
        #expect(Tracker.defaultSessionPolicy.maximumLength == .seconds(90 * 60))
        #expect(Tracker.defaultSessionPolicy.inactivityTimeout == nil)
    }

    @Test("inactivity ends a session when opted in: the next call after 30 quiet minutes starts a new one")
    func inactivityWhenOptedIn() async throws {
        let fixture = TrackerFixture()
        let directory = TemporaryDirectory()
        let tracker = Tracker(
            source: Self.alwaysBanner(),
            reporter: fixture.reporter,
            directory: directory.url,
            session: fixture.harness.session,
            sessionPolicy: SessionPolicy(maximumLength: .seconds(90 * 60), inactivityTimeout: .seconds(30 * 60))
        )
        try #require(try await tracker.getResult().actions.first).reportClose(dontShowSessions: 2)
        let sessions = tracker.sessionCount
        fixture.harness.scheduler.advance(by: .seconds(29 * 60))
        try tracker.navigate(documentName: "home")
        #expect(tracker.sessionCount == sessions, "29 minutes: the same session")
        fixture.harness.scheduler.advance(by: .seconds(30 * 60))
        try tracker.navigate(documentName: "home")
        #expect(tracker.sessionCount == sessions + 1, "30 minutes without a call: a new session")
        #expect(tracker.hiddenSessionsRemaining(actionID: 7) == 0)
        fixture.harness.scheduler.advance(by: .seconds(30 * 60))
        #expect(try await Self.shown(tracker), "a third session, so the banner is back")
        await tracker.waitForReports()
    }
}
