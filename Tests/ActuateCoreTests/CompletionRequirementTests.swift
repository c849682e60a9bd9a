import Dispatch
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuateTesting

@Suite("Completion requirements")
struct CompletionRequirementTests {
    @Test("completing twice is reported and the caller hears only the first outcome")
    func completingTwice() async throws {
        let harness = ActionTestHarness(expectedDiagnostics: [.completedTwice])
        let callerCalls = Atomic<Int>(0)
        let pending = harness.start(GreetingFeature.completesTwice, input: .noInput, presenter: ())
        let outcome = try #require(await pending.outcome())
        #expect(outcome.simplifiedOutcome.isSuccess)
        harness.session.perform(GreetingFeature.completesTwice) { _ in callerCalls.add(1, ordering: .relaxed) }
        #expect(await eventually { harness.diagnostics.kinds.count == 2 })
        #expect(harness.diagnostics.kinds == [.completedTwice, .completedTwice])
        #expect(callerCalls.load(ordering: .relaxed) == 1)
        #expect(harness.recorder.completedActionNames == ["Completes Twice", "Completes Twice"])
        #expect(harness.diagnostics.diagnostics[0].message.contains("more than once"))
    }

    @Test("a deferred status completed again later is reported, not delivered")
    func deferredCompletedAgainLater() async throws {
        let harness = ActionTestHarness(expectedDiagnostics: [.completedTwice])
        let probe = Probe()
        let pending = harness.start(GreetingFeature.probe, input: probe, presenter: GreetingPresenter())
        #expect(await eventually { probe.events.count == 1 })
        probe.completeKeptAgain(.success)
        probe.completeKeptAgain(.failure(error: TestError.boom))
        let outcome = try #require(await pending.outcome())
        #expect(outcome.simplifiedOutcome.isSuccess)
        #expect(harness.diagnostics.kinds == [.completedTwice])
        #expect(harness.recorder.completedActionNames == ["Probe"])
    }

    @Test("returning a synchronous status of another requirement is reported and fails the action")
    func foreignSyncStatus() async throws {
        let harness = ActionTestHarness(expectedDiagnostics: [.foreignCompletionStatus])
        let outcome = await harness.perform(GreetingFeature.foreignStatus, input: .noInput, presenter: ())
        #expect(harness.diagnostics.kinds == [.foreignCompletionStatus])
        #expect(outcome.simplifiedOutcome.error as? ActuateError == .foreignCompletionStatus(action: "Foreign Status"))
    }

    @Test("returning a deferred status of another requirement is reported and fails the action")
    func foreignDeferredStatus() async throws {
        let harness = ActionTestHarness(expectedDiagnostics: [.foreignCompletionStatus])
        let outcome = await harness.perform(GreetingFeature.foreignDeferredStatus, input: .noInput, presenter: ())
        #expect(harness.diagnostics.kinds == [.foreignCompletionStatus])
        #expect(!outcome.simplifiedOutcome.isSuccess)
        #expect(harness.dispatcher.pendingAsyncCompletions == 0)
    }

    @Test("an action that never completes is reported after the timeout on the injected clock")
    func neverCompletes() async throws {
        let harness = ActionTestHarness(sessionName: "checkout", expectedDiagnostics: [.neverCompleted])
        let probe = Probe()
        let pending = harness.start(GreetingFeature.probe, input: probe, presenter: GreetingPresenter())
        #expect(await eventually { harness.dispatcher.pendingAsyncCompletions == 1 })
        harness.scheduler.advance(by: .milliseconds(9_999))
        #expect(harness.diagnostics.kinds.isEmpty)
        harness.scheduler.advance(by: .milliseconds(1))
        let diagnostic = try #require(harness.diagnostics.diagnostics.first)
        #expect(diagnostic.kind == .neverCompleted)
        #expect(diagnostic.actionName == "Probe")
        #expect(diagnostic.sessionName == "checkout")
        #expect(diagnostic.message.contains("10 s"))
        harness.scheduler.advance(by: .seconds(60))
        #expect(harness.diagnostics.kinds == [.neverCompleted])
        probe.completeKept(.success)
        #expect(await pending.outcome()?.simplifiedOutcome.isSuccess == true)
    }

    @Test("the completion timeout is configurable and an action completing in time is not reported")
    func configurableTimeout() async {
        let harness = ActionTestHarness(completionTimeout: .seconds(2), expectedDiagnostics: [.neverCompleted])
        let late = Probe()
        let onTime = Probe()
        _ = harness.start(GreetingFeature.probe, input: late, presenter: GreetingPresenter())
        let onTimePending = harness.start(GreetingFeature.probe, input: onTime, presenter: GreetingPresenter())
        #expect(await eventually { harness.dispatcher.pendingAsyncCompletions == 2 })
        harness.scheduler.advance(by: .seconds(1))
        onTime.completeKept(.success)
        _ = await onTimePending.outcome()
        harness.scheduler.advance(by: .seconds(1))
        #expect(harness.diagnostics.kinds == [.neverCompleted])
        late.completeKept(.success)
    }

    @Test("nothing is retained after an async completion")
    func noRetainCycle() async throws {
        let harness = ActionTestHarness()
        weak var weakPresenter: GreetingPresenter?
        weak var weakStatus: CompletionRequirement<ActionPerformOutcome>.DeferredStatus?
        let probe = Probe()
        var pending: PendingActionOutcome?
        do {
            let presenter = GreetingPresenter()
            weakPresenter = presenter
            pending = harness.start(GreetingFeature.probe, input: probe, presenter: presenter)
        }
        #expect(await eventually { probe.events.count == 1 })
        probe.withKept { weakStatus = $0 }
        #expect(weakStatus != nil)
        probe.completeKept(.success)
        _ = await pending?.outcome()
        await withCheckedContinuation { continuation in TestQueues.background.async { continuation.resume() } }
        #expect(weakStatus == nil)
        #expect(weakPresenter == nil)
    }

    @Test("an input that keeps its own completion status is released once the action completes")
    func inputKeepingItsStatusIsReleased() async throws {
        let harness = ActionTestHarness(expectedDiagnostics: [.completedTwice])
        weak var weakProbe: Probe?
        var pending: PendingActionOutcome?
        do {
            let probe = Probe()
            weakProbe = probe
            pending = harness.start(GreetingFeature.probe, input: probe, presenter: GreetingPresenter())
            #expect(await eventually { probe.keptStatus != nil })
            // Completes without forgetting: the probe still holds its status, and the status its operation.
            probe.completeKeptAgain(.success)
        }
        #expect(await pending?.outcome()?.isSuccess == true)
        await withCheckedContinuation { continuation in TestQueues.background.async { continuation.resume() } }
        #expect(weakProbe == nil)
        // A second completion through a status kept elsewhere is still reported, from the operation's header.
        let second = Probe()
        _ = harness.start(GreetingFeature.probe, input: second, presenter: GreetingPresenter())
        #expect(await eventually { second.keptStatus != nil })
        let status = try #require(second.keptStatus)
        second.completeKept(.success)
        status.completed(.success)
        #expect(harness.diagnostics.kinds == [.completedTwice])
    }

    @Test("a requirement made by hand reports to its handler once")
    func handMadeRequirement() {
        let calls = Mutex<[Bool]>([])
        let requirement = CompletionRequirement<Int> { _, async in calls.withLock { $0.append(async) } }
        let status = requirement.willCompleteAsync()
        #expect(status.isCompletingAsync)
        #expect(!requirement.isCompleted)
        status.completed(1)
        status.completed(2)
        #expect(requirement.isCompleted)
        #expect(calls.withLock { $0 } == [true])
        let syncRequirement = CompletionRequirement<Int> { _, async in calls.withLock { $0.append(async) } }
        #expect(syncRequirement.completedSync(3).isCompletingAsync == false)
        #expect(calls.withLock { $0 } == [true, false])
    }
}

extension Probe {
    func withKept(_ body: (CompletionRequirement<ActionPerformOutcome>.DeferredStatus?) -> Void) {
        body(keptStatus)
    }
}

@Suite("Completion watchdog on the system clock")
struct SystemClockWatchdogTests {
    @Test("with no plugin, a deferred completion is watched from when the body returned, not from time zero")
    func deferredWithoutPluginsIsWatchedFromNow() async throws {
        // With the system clock and no plugin, a dispatch reads no clock; the watch must then read it itself.
        let dispatcher = ActionDispatcher(
            scheduler: SystemScheduler.shared,
            diagnostics: RecordingDiagnostics(),
            completionTimeout: .seconds(600)
        )
        let session = ActionSession(named: "watched", dispatcher: dispatcher)
        let probe = Probe()
        let before = SystemScheduler.shared.uptime()
        session.perform(GreetingFeature.probe, input: probe, presenter: GreetingPresenter(), completion: nil)
        #expect(await eventually { dispatcher.pendingAsyncCompletions == 1 })
        let after = SystemScheduler.shared.uptime()
        let deadline = try #require(dispatcher.watchdog.trackedDeadlines.first)
        #expect(deadline >= before + .seconds(600))
        #expect(deadline <= after + .seconds(600))
        probe.completeKept(.success)
        #expect(await eventually { dispatcher.pendingAsyncCompletions == 0 })
    }
}
