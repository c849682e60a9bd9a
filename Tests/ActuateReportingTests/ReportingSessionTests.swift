import Actuate
import ActuateTesting
import Foundation
import Synchronization
import Testing

@testable import ActuateReporting

private let start = Date(timeIntervalSince1970: 1_767_225_600)

private func minutes(_ value: Int, seconds: Int = 0) -> Duration {
    .seconds(value * 60 + seconds)
}

@Suite("Reporting sessions")
struct ReportingSessionTests {
    private struct IDs {
        var next = 0
        mutating func make() -> String {
            next += 1
            return "s\(next)"
        }
    }

    @Test("the first event starts a session")
    func firstEventStarts() {
        var machine = SessionStateMachine(policy: SessionPolicy())
        var ids = IDs()
        #expect(machine.liveSession(at: .zero) == nil)
        let transition = machine.recordActivity(uptime: .zero, date: start) { ids.make() }
        #expect(transition.ended == nil)
        #expect(transition.started?.id == "s1")
        #expect(transition.current.id == "s1")
        #expect(machine.liveSession(at: .zero)?.id == "s1")
    }

    @Test("the maximum length counts from the start: 89:59 joins, 90:00 starts a new session")
    func maximumLengthBoundary() {
        var machine = SessionStateMachine(policy: SessionPolicy(inactivityTimeout: nil))
        var ids = IDs()
        _ = machine.recordActivity(uptime: .zero, date: start) { ids.make() }

        let joined = machine.recordActivity(uptime: minutes(89, seconds: 59), date: start) { ids.make() }
        #expect(joined.started == nil)
        #expect(joined.current.id == "s1")

        let rolled = machine.recordActivity(uptime: minutes(90), date: start.addingTimeInterval(5400)) { ids.make() }
        #expect(rolled.current.id == "s2")
        #expect(rolled.ended?.session.id == "s1")
        #expect(rolled.ended?.reason == .maximumLength)
        // An expired session lasts until its last event.
        #expect(rolled.ended?.duration == minutes(89, seconds: 59))
        #expect(rolled.ended?.endDate == start.addingTimeInterval(89 * 60 + 59))
    }

    @Test("a busy session still ends 90 minutes after its start, whatever the inactivity rule")
    func maximumLengthIsNotInactivity() {
        var machine = SessionStateMachine(policy: SessionPolicy())
        var ids = IDs()
        for minute in stride(from: 0, through: 80, by: 20) {
            let transition = machine.recordActivity(uptime: minutes(minute), date: start) { ids.make() }
            #expect(transition.current.id == "s1")
        }
        let transition = machine.recordActivity(uptime: minutes(100), date: start) { ids.make() }
        #expect(transition.ended?.reason == .maximumLength)
        #expect(transition.current.id == "s2")
    }

    @Test("inactivity: 29:59 after the last event joins, 30:00 starts a new session")
    func inactivityBoundary() {
        var machine = SessionStateMachine(policy: SessionPolicy(maximumLength: nil))
        var ids = IDs()
        _ = machine.recordActivity(uptime: .zero, date: start) { ids.make() }
        _ = machine.recordActivity(uptime: minutes(10), date: start) { ids.make() }

        let joined = machine.recordActivity(uptime: minutes(39, seconds: 59), date: start) { ids.make() }
        #expect(joined.current.id == "s1")

        #expect(machine.liveSession(at: minutes(69, seconds: 58))?.id == "s1")
        #expect(machine.liveSession(at: minutes(69, seconds: 59)) == nil)
        let rolled = machine.recordActivity(uptime: minutes(69, seconds: 59), date: start) { ids.make() }
        #expect(rolled.ended?.reason == .inactivity)
        #expect(rolled.ended?.duration == minutes(39, seconds: 59))
        #expect(rolled.current.id == "s2")
    }

    @Test("when both rules have expired a session, the earlier deadline is the reason")
    func earlierRuleWins() {
        var machine = SessionStateMachine(policy: SessionPolicy())
        var ids = IDs()
        for minute in [0, 25, 50, 75] {
            _ = machine.recordActivity(uptime: minutes(minute), date: start) { ids.make() }
        }
        // Maximum length expires at 90:00, inactivity at 105:00.
        let rolled = machine.recordActivity(uptime: minutes(200), date: start) { ids.make() }
        #expect(rolled.ended?.reason == .maximumLength)
        #expect(rolled.ended?.session.id == "s1")

        _ = machine.recordActivity(uptime: minutes(210), date: start) { ids.make() }
        // Inactivity expires at 240:00, maximum length at 290:00.
        let again = machine.recordActivity(uptime: minutes(400), date: start) { ids.make() }
        #expect(again.ended?.reason == .inactivity)
        #expect(again.ended?.duration == minutes(10))
    }

    @Test("with both rules off a session never expires")
    func rulesOff() {
        var machine = SessionStateMachine(policy: SessionPolicy(maximumLength: nil, inactivityTimeout: nil))
        var ids = IDs()
        _ = machine.recordActivity(uptime: .zero, date: start) { ids.make() }
        let later = machine.recordActivity(uptime: .seconds(365 * 86_400), date: start) { ids.make() }
        #expect(later.current.id == "s1")
    }

    @Test("startNewSession ends a live session with its full length and starts another")
    func startNewSession() {
        var machine = SessionStateMachine(policy: SessionPolicy())
        var ids = IDs()
        _ = machine.recordActivity(uptime: .zero, date: start) { ids.make() }
        let transition = machine.startNewSession(uptime: minutes(5), date: start.addingTimeInterval(300)) {
            ids.make()
        }
        #expect(transition.ended?.reason == .newSessionRequested)
        #expect(transition.ended?.duration == minutes(5))
        #expect(transition.ended?.endDate == start.addingTimeInterval(300))
        #expect(transition.started?.id == "s2")
        #expect(machine.session?.startUptime == minutes(5))
    }

    @Test("ending with no session does nothing; ending an expired one keeps its expiry reason")
    func endSession() {
        var machine = SessionStateMachine(policy: SessionPolicy())
        var ids = IDs()
        #expect(machine.endSession(uptime: .zero, date: start, reason: .ended) == nil)
        _ = machine.recordActivity(uptime: .zero, date: start) { ids.make() }
        let ended = machine.endSession(uptime: minutes(45), date: start, reason: .ended)
        #expect(ended?.reason == .inactivity)
        #expect(ended?.duration == .zero)
        #expect(machine.session == nil)
    }

    @Test("the reporter records session boundaries on the scheduler's clock")
    func reporterRecordsBoundaries() throws {
        let fixture = ReporterFixture(policy: SessionPolicy(inactivityTimeout: nil))
        fixture.reporter.record(content: .executed, for: banner)
        fixture.scheduler.advance(by: minutes(89, seconds: 59))
        fixture.reporter.record(content: .target(), for: banner)
        fixture.scheduler.advance(by: .seconds(1))
        fixture.reporter.record(content: .executed, for: banner)

        let events = fixture.events
        #expect(
            events.map(\.type) == ["session_start", "executed", "target", "session_end", "session_start", "executed"]
        )
        let first = events[0].sessionID
        #expect(events[0...3].allSatisfy { $0.sessionID == first })
        #expect(events[4].sessionID != first && events[5].sessionID == events[4].sessionID)
        #expect(events[3].properties["duration"]?.numberValue == Double(89 * 60 + 59))
        #expect(events[3].properties["reason"] == "maximumLength")
        #expect(events[3].timestamp == start.addingTimeInterval(89 * 60 + 59))
        #expect(events[4].timestamp == start.addingTimeInterval(90 * 60))
    }

    @Test("the reporter's inactivity rule starts a new session after a quiet spell")
    func reporterInactivity() {
        let fixture = ReporterFixture(policy: SessionPolicy(inactivityTimeout: .seconds(600)))
        fixture.reporter.record(content: .executed, for: banner)
        fixture.scheduler.advance(by: .seconds(599))
        fixture.reporter.record(content: .executed, for: banner)
        fixture.scheduler.advance(by: .seconds(600))
        #expect(fixture.reporter.currentSession == nil)
        fixture.reporter.record(content: .executed, for: banner)

        let ends = fixture.events(ofType: .sessionEnd)
        #expect(ends.count == 1)
        #expect(ends.first?.properties["reason"] == "inactivity")
        #expect(ends.first?.properties["duration"] == 599)
        #expect(Set(fixture.events(ofType: .executed).map(\.sessionID)).count == 2)
    }

    @Test("startNewSession on the reporter records the end and the start, and tells session observers")
    func reporterStartNewSession() throws {
        let fixture = ReporterFixture()
        let observed = StringLog()
        fixture.reporter.onSessionStart { observed.append($0.id) }
        fixture.reporter.record(content: .executed, for: banner)
        let first = try #require(fixture.reporter.currentSession)
        fixture.scheduler.advance(by: .seconds(30))

        let second = fixture.reporter.startNewSession()

        #expect(second.id != first.id)
        #expect(fixture.reporter.currentSession == second)
        #expect(fixture.events.map(\.type) == ["session_start", "executed", "session_end", "session_start"])
        #expect(fixture.events[2].properties["duration"] == 30)
        #expect(fixture.events[2].properties["reason"] == "newSessionRequested")
        #expect(observed.values == [first.id, second.id])
        let next = try #require(fixture.reporter.record(content: .executed, for: banner).event)
        #expect(next.sessionID == second.id)
    }

    @Test("endSession records the end and the next event starts a new session")
    func reporterEndSession() throws {
        let fixture = ReporterFixture()
        let first = try #require(fixture.reporter.record(content: .executed, for: banner).event)
        fixture.scheduler.advance(by: .seconds(12))
        fixture.reporter.endSession()
        #expect(fixture.reporter.currentSession == nil)
        fixture.reporter.endSession()
        let next = try #require(fixture.reporter.record(content: .executed, for: banner).event)
        #expect(next.sessionID != first.sessionID)
        #expect(fixture.events(ofType: .sessionEnd).map { $0.properties["duration"] } == [12])
    }
}

/// A thread-safe list of strings.
final class StringLog: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ value: String) { storage.withLock { $0.append(value) } }
    var values: [String] { storage.withLock { $0 } }
}
