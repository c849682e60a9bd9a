import ActuateTesting
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePlugins

/// Requests that agree on everything their loggers know share one pair of loggers; anything that differs gives
/// a pair of its own.
@Suite("Focus logging, shared loggers")
struct FocusLoggingSharingTests {
    private let feature: FeatureMetadata
    private let action: ActionMetadata

    init() throws {
        _ = FocusFixtures.registered
        feature = FeatureRegistry.shared.metadata(for: FocusAccountFeature.self)
        action = try #require(feature.actions.first)
    }

    @Test("the same feature, action, session, levels and clock share one pair")
    func shared() {
        let logging = FocusLogging(backend: InMemoryLogBackend())
        let clock = TestScheduler()
        let first = logging.makeLogs(feature: feature, action: action, session: "s", clock: clock)
        let second = logging.makeLogs(feature: feature, action: action, session: "s", clock: clock)
        #expect(first === second)
        let system = logging.makeLogs(feature: feature, action: action, session: "s", clock: SystemScheduler.shared)
        #expect(system !== first)
        #expect(system === logging.makeLogs(feature: feature, action: action, session: "s", clock: SystemScheduler()))
    }

    @Test("another session or clock gets loggers that write its own session and dates")
    func perSessionAndClock() throws {
        let backend = InMemoryLogBackend()
        let logging = FocusLogging(backend: backend)
        let early = TestScheduler()
        let late = TestScheduler()
        late.advance(by: .seconds(60))
        let one = logging.makeLogs(feature: feature, action: action, session: "one", clock: early)
        let two = logging.makeLogs(feature: feature, action: action, session: "two", clock: early)
        let later = logging.makeLogs(feature: feature, action: action, session: "one", clock: late)
        #expect(one !== two && one !== later)
        one.production.error("a")
        two.production.error("b")
        later.production.error("c")
        let events = backend.events
        #expect(events.map(\.sessionName) == ["one", "two", "one"])
        #expect(events[2].date.timeIntervalSince(events[0].date) == 60)
    }

    @Test("a change of focus gives later requests loggers at the new levels")
    func focusChange() {
        let logging = FocusLogging(backend: InMemoryLogBackend())
        let clock = TestScheduler()
        let before = logging.makeLogs(feature: feature, action: action, session: "s", clock: clock)
        #expect(!before.development.isEnabled(.debug))
        logging.selection.focus(feature.path)
        let focused = logging.makeLogs(feature: feature, action: action, session: "s", clock: clock)
        #expect(focused.development.isEnabled(.debug))
        logging.selection.replace(with: [FocusFixtures.cartPath])
        let elsewhere = logging.makeLogs(feature: feature, action: action, session: "s", clock: clock)
        #expect(!elsewhere.production.isEnabled(.warning))
        #expect(elsewhere.production.isEnabled(.error))
        logging.selection.removeAll()
        #expect(logging.makeLogs(feature: feature, action: action, session: "s", clock: clock) === before)
        #expect(logging.selection.isEmpty)
    }

    @Test("loggers keep writing after their logging is released")
    func outlivesLogging() {
        let backend = InMemoryLogBackend()
        var logging: FocusLogging? = FocusLogging(backend: backend)
        let logs = logging!.makeLogs(feature: feature, action: action, session: "s", clock: TestScheduler())
        logging = nil
        logs.production.error("still here")
        #expect(backend.events.map(\.message) == ["still here"])
    }
}
