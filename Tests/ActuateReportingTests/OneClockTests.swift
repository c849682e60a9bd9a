import ActuateReporting
import ActuateTesting
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePlugins

// Every plugin driven by one TestScheduler whose virtual date is far from today: every date and duration
// they produce must come from it.

private enum OneClockQueue {
    static let queue = DispatchQueue(label: "actuate.tests.one-clock")
}

/// Logs, then completes (ending its feature's use) when the test scheduler it is given as its presenter has
/// moved 2.5 s on, logging again.
private final class SettleBillAction: Action, ReportedAction {
    typealias PresenterType = TestScheduler
    static var queue: DispatchQueue { OneClockQueue.queue }
    static var analyticsID: String? { "settle-bill" }

    static func perform(
        context: ActionContext<NoInput>,
        presenter: TestScheduler,
        completion: Completion
    )
        -> Completion.Status
    {
        context.logs.production.warning("settling")
        let status = completion.willCompleteAsync()
        presenter.schedule(after: .milliseconds(2_500)) {
            context.logs.production.warning("settled")
            status.completed(.successWithFeatureTermination)
        }
        return status
    }
}

private final class BillingFeature: Feature {
    static let settle = action(SettleBillAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(settle)
    }
}

@Suite("One clock per dispatcher")
struct OneClockTests {
    /// 2100-01-01T00:00:00Z, so that a date read from the wall clock cannot pass for a virtual one.
    private static let virtualStart = Date(timeIntervalSince1970: 4_102_444_800)

    @Test("every plugin's dates and durations come from the dispatcher's TestScheduler")
    func everyPluginReadsTheDispatcherClock() throws {
        let scheduler = TestScheduler(startDate: Self.virtualStart)
        scheduler.advance(by: .seconds(60))
        let logBackend = InMemoryLogBackend()
        let logging = FocusLogging(backend: logBackend)
        let dispatcher = ActionDispatcher(
            scheduler: scheduler,
            diagnostics: RecordingDiagnostics(),
            loggerFactory: logging
        )
        let timeline = Timeline(maxEntries: 10)
        let stacks = ActionStacksPlugin()
        let analytics = RecordingAnalyticsProvider()
        let store = MemoryEventStore()
        let reporter = Reporter(
            store: store,
            delivery: nil,
            scheduler: scheduler,
            identity: Identity(storage: MemoryIdentityStorage())
        )
        for plugin: any ActionDispatchPlugin in [
            timeline, stacks, AnalyticsPlugin(provider: analytics), ReportingPlugin(reporter: reporter),
        ] {
            dispatcher.add(plugin: plugin)
        }
        let report = DebugReport(reportables: [timeline, stacks, logging], dispatcher: dispatcher)
        let session = ActionSession(named: "billing", dispatcher: dispatcher)

        let outcome = Mutex<ActionPerformOutcome?>(nil)
        OneClockQueue.queue.sync {
            _ = session.performReturningID(
                BillingFeature.settle,
                input: .noInput,
                presenter: scheduler,
                userInitiated: true,
                source: .application
            ) { result in
                outcome.withLock { $0 = result }
            }
        }
        scheduler.advance(by: .milliseconds(2_500))
        #expect(outcome.withLock { $0 }?.terminatesFeature == true)
        scheduler.advance(by: .seconds(10))

        let start = Self.virtualStart.addingTimeInterval(60)
        let end = start.addingTimeInterval(2.5)

        let entry = try #require(timeline.snapshot().first)
        #expect(entry.startDate == start)
        #expect(entry.startOffsetNanoseconds == 60_000_000_000)
        #expect(entry.durationNanoseconds == 2_500_000_000)

        let stack = try #require(stacks.snapshot().closed.first)
        #expect(stack.openedAt == start)
        #expect(stack.closedAt == end)
        #expect(stack.entries.map(\.date) == [start])

        #expect(logBackend.events.map(\.date) == [start, end])
        #expect(logging.recentEvents().map(\.date) == [start, end])

        let began = try #require(analytics.events.first { $0.phase == .began })
        let ended = try #require(analytics.events.first { $0.phase == .ended })
        #expect(began.date == start)
        #expect(ended.date == end)
        #expect(ended.duration == 2.5)

        let recorded = try #require(try store.fetch(count: 10, maxBytes: .max).first { $0.type == "action" })
        #expect(recorded.properties["durationSeconds"] == 2.5)
        #expect(recorded.timestamp == end)

        let document = try #require(try JSONSerialization.jsonObject(with: report.jsonData()) as? [String: Any])
        #expect(document["generatedAt"] as? String == "2100-01-01T00:01:12.500000Z")
        #expect(report.text().hasPrefix("Actuate debug report, 2100-01-01T00:01:12"))
    }

    @Test("the dispatcher reads its clock once at the start and once at completion, for every plugin")
    func oneReadingEach() throws {
        let scheduler = CountingScheduler()
        let dispatcher = ActionDispatcher(
            scheduler: scheduler,
            diagnostics: RecordingDiagnostics(),
            completionTimeout: nil
        )
        let timeline = Timeline(maxEntries: 10)
        let analytics = RecordingAnalyticsProvider()
        for plugin: any ActionDispatchPlugin in [
            timeline, ActionStacksPlugin(), AnalyticsPlugin(provider: analytics),
        ] {
            dispatcher.add(plugin: plugin)
        }
        let session = ActionSession(named: "billing", dispatcher: dispatcher)
        let test = TestScheduler()
        OneClockQueue.queue.sync {
            _ = session.performReturningID(
                BillingFeature.settle,
                input: .noInput,
                presenter: test,
                userInitiated: true,
                source: .application
            ) { _ in }
        }
        test.advance(by: .seconds(3))
        #expect(scheduler.readings == ["now", "uptimeNanoseconds", "uptimeNanoseconds"])
        #expect(timeline.snapshot().first?.durationNanoseconds == 1_000)
        #expect(analytics.events.map(\.date) == [scheduler.date, scheduler.date.addingTimeInterval(1e-6)])
    }
}

/// A clock that records which readings were taken; each monotonic reading is 1 µs after the last.
private final class CountingScheduler: ActuateScheduler {
    let date = Date(timeIntervalSince1970: 4_102_444_800)
    private let state = Mutex<(readings: [String], uptime: UInt64)>(([], 0))

    var readings: [String] { state.withLock { $0.readings } }

    func now() -> Date {
        state.withLock { $0.readings.append("now") }
        return date
    }

    func uptime() -> Duration {
        state.withLock { $0.readings.append("uptime") }
        return .zero
    }

    func uptimeNanoseconds() -> UInt64 {
        state.withLock { state in
            state.readings.append("uptimeNanoseconds")
            defer { state.uptime += 1_000 }
            return state.uptime
        }
    }

    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        ScheduledWork {}
    }
}
