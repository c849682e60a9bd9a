import Dispatch
import Foundation
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuateTesting

@Suite("Virtual time for async actions")
struct VirtualTimeTests {
    // The rounds share the action's queue (a lane no other test uses: the harness tests below leave bodies stuck on
    // purpose), whose async bodies never interleave; run in parallel under a loaded full suite, the twentieth waited
    // for nineteen others past the harness's real-time limit. One at a time, each round is the race it is meant to
    // be, its body against its own advance.
    @Test(
        "start, advance, value: the advance never races the body's first sleep",
        .serialized,
        arguments: 0..<20
    )
    func advanceBeforeFirstSleep(round: Int) async {
        let harness = ActionTestHarness()
        harness.dependencies[SleepClockKey.self] = harness.scheduler
        let presenter = DependencyPresenter()
        let sleeping = harness.start(DependencyFeature.racingSleep, input: 2, presenter: presenter)
        harness.scheduler.advance(by: .milliseconds(50))
        harness.scheduler.advance(by: .milliseconds(50))
        #expect(await sleeping.value().isSuccess)
        #expect(presenter.recorded == ["slept 1", "slept 2"])
    }

    @Test("a sleep wakes only when an advance passes its deadline")
    func sleepWaitsForDeadline() async {
        let scheduler = TestScheduler()
        let woke = DependencyPresenter()
        let task = Task {
            try await scheduler.sleep(for: .seconds(1))
            woke.show("woke")
        }
        #expect(await eventually { scheduler.sleeperCount == 1 })
        scheduler.advance(by: .milliseconds(999))
        #expect(scheduler.sleeperCount == 1)
        scheduler.advance(by: .milliseconds(1))
        _ = await task.result
        #expect(woke.recorded == ["woke"])
        #expect(scheduler.sleeperCount == 0)
    }

    @Test("a sleep throws CancellationError when its task is cancelled, and leaves nothing scheduled")
    func sleepCancels() async {
        let scheduler = TestScheduler()
        let task = Task { try await scheduler.sleep(for: .seconds(1)) }
        #expect(await eventually { scheduler.sleeperCount == 1 })
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(scheduler.pendingCount == 0)
    }

    @Test("the test scheduler is a Clock<Duration> through its clock view")
    func clockView() async throws {
        func wait(on clock: some Clock<Duration>) async throws { try await clock.sleep(for: .seconds(2)) }
        let scheduler = TestScheduler()
        let task = Task { try await wait(on: scheduler.clock) }
        #expect(await eventually { scheduler.sleeperCount == 1 })
        scheduler.advance(by: .seconds(2))
        try await task.value
        #expect(scheduler.clock.now == SchedulerClock.Instant(uptime: .seconds(2)))
    }

    @Test("the system scheduler's sleep sleeps for real, and is cancellable")
    func systemSleep() async {
        let task = Task { try await SystemScheduler.shared.sleep(for: .seconds(60)) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test("the default sleep, over schedule(after:), wakes and cancels")
    func defaultSleep() async throws {
        struct Forwarding: ActuateScheduler {
            let base: TestScheduler
            func now() -> Date { base.now() }
            func uptime() -> Duration { base.uptime() }
            func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
                base.schedule(after: delay, work)
            }
        }
        let base = TestScheduler()
        let scheduler = Forwarding(base: base)
        let sleeping = Task { try await scheduler.sleep(for: .seconds(1)) }
        #expect(await eventually { base.pendingCount == 1 })
        base.advance(by: .seconds(1))
        try await sleeping.value
        let cancelled = Task { try await scheduler.sleep(for: .seconds(1)) }
        #expect(await eventually { base.pendingCount == 1 })
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(base.pendingCount == 0)
    }
}

@Suite("The harness for async actions")
struct AsyncHarnessTests {
    @Test("harness.perform is cancelled with the task that awaits it")
    func performCancelledWithTask() async {
        let harness = ActionTestHarness(realTimeLimit: .seconds(60))
        harness.dependencies[SleepClockKey.self] = harness.scheduler
        let task = Task {
            await harness.perform(DependencyFeature.sleeping, input: 1, presenter: DependencyPresenter())
        }
        task.cancel()
        let outcome = await task.value
        #expect(outcome.error is ActionCancellationError)
    }

    @Test("start returns a handle whose cancel() cancels the body")
    func startCancel() async {
        let harness = ActionTestHarness(realTimeLimit: .seconds(60))
        harness.dependencies[SleepClockKey.self] = harness.scheduler
        let presenter = DependencyPresenter()
        let sleeping = harness.start(DependencyFeature.sleeping, input: 1, presenter: presenter)
        sleeping.cancel()
        #expect(await sleeping.value().error is ActionCancellationError)
        #expect(presenter.recorded.isEmpty)
    }

    @Test("a body waiting on a sleep nobody advanced is told so")
    func sleepNobodyAdvanced() async {
        let harness = ActionTestHarness(realTimeLimit: .milliseconds(300))
        harness.dependencies[SleepClockKey.self] = harness.scheduler
        await withKnownIssue {
            await harness.perform(DependencyFeature.abandonedSleep, input: 1, presenter: DependencyPresenter())
        } matching: { issue in
            issue.description.contains("sleeps on the test scheduler until 0.05 seconds")
                && issue.description.contains("nobody advanced it")
        }
    }

    @Test("an async body that never finishes is told it awaits, not that it returned willCompleteAsync()")
    func asyncBodyNeverFinishes() async {
        let harness = ActionTestHarness(realTimeLimit: .milliseconds(300))
        let pending = harness.start(DependencyFeature.awaitsForever)
        await withKnownIssue {
            _ = await pending.value()
        } matching: { issue in
            issue.description.contains("its async body is suspended in an `await` that never resumed")
                && !issue.description.contains("willCompleteAsync")
        }
        pending.cancel()
        #expect(await pending.outcome()?.error is ActionCancellationError)
    }

    @Test("a callback body that returned willCompleteAsync() and never completed is told so")
    func callbackNeverCompletes() async {
        let harness = ActionTestHarness(realTimeLimit: .milliseconds(300), expectedDiagnostics: [.neverCompleted])
        await withKnownIssue {
            await harness.perform(DependencyFeature.neverCompletingCallback)
        } matching: { issue in
            issue.description.contains("returned `completion.willCompleteAsync()`")
        }
    }
}
