import Foundation
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuateTesting

@Suite("Async actions")
struct AsyncActionTests {
    @Test("a returning body succeeds, on its queue, through every plugin")
    func returns() async {
        let harness = ActionTestHarness()
        let probe = Probe()
        let outcome = await harness.perform(
            AsyncFeature.scripted,
            input: AsyncScript("a", [.succeed], probe: probe),
            presenter: ()
        )
        #expect(outcome.isSuccess)
        #expect(probe.events == ["a start on serial-async", "a end"])
        #expect(harness.timeline.snapshot().first?.outcome == .success)
        #expect(harness.recorder.completedActionNames == ["Scripted Async"])
    }

    @Test("an awaited body runs in the awaiting task, on its queue; one started with a callback, in a task of its own")
    func awaitedBodyRunsInAwaitingTask() async {
        let harness = ActionTestHarness()
        let probe = Probe()
        let awaited = await AsyncScriptTrace.$awaitingTask.withValue(AsyncScriptTrace.currentTask) {
            let script = AsyncScript("awaited", [.logTask], probe: probe)
            return await harness.session.perform(AsyncFeature.scripted, input: script)
        }
        // The harness starts the body through the callback `perform`, as an app does without `await`.
        let started = await AsyncScriptTrace.$awaitingTask.withValue(AsyncScriptTrace.currentTask) {
            await harness.perform(AsyncFeature.scripted, input: AsyncScript("started", [.logTask], probe: probe))
        }
        #expect(awaited.isSuccess)
        #expect(started.isSuccess)
        #expect(
            probe.events == [
                "awaited start on serial-async", "awaited runs in the awaiting task on serial-async", "awaited end",
                "started start on serial-async", "started runs in a task that sees no awaiting task on serial-async",
                "started end",
            ]
        )
        #expect(harness.timeline.snapshot().map(\.outcome) == [.success, .success])
    }

    @Test("a throwing body fails with the thrown error")
    func throwsError() async throws {
        let harness = ActionTestHarness()
        let outcome = await harness.perform(
            AsyncFeature.scripted,
            input: AsyncScript("t", [.fail], probe: Probe()),
            presenter: ()
        )
        #expect(outcome.simplifiedOutcome.error as? TestError == .boom)
        #expect(harness.timeline.snapshot().first?.outcome == .failure(message: "boom"))
    }

    @Test("the body resumes on its queue after a suspension")
    func resumesOnQueue() async {
        let harness = ActionTestHarness()
        let probe = Probe()
        let pending = harness.start(
            AsyncFeature.resumeScripted,
            input: AsyncScript("r", [.waitFor("go")], probe: probe),
            presenter: ()
        )
        #expect(await eventually { probe.release("go") })
        _ = await pending.outcome()
        #expect(probe.events == ["r start on resume", "waiting go", "r resumed on resume", "r end"])
    }

    @Test("a task cancelled before performing never runs the body")
    func cancelledBefore() async throws {
        let harness = ActionTestHarness()
        let probe = Probe()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await harness.session.performDetailed(
                AsyncFeature.scripted,
                input: AsyncScript("c", [.succeed], probe: probe),
                presenter: ()
            )
        }
        let outcome = await task.value
        let error = try #require(outcome.simplifiedOutcome.error as? ActionCancellationError)
        #expect(error.bodyStarted == false)
        #expect(outcome.isCancellation)
        #expect(probe.events.isEmpty)
        #expect(harness.timeline.snapshot().first?.outcome == .cancelled)
    }

    @Test("cancelling the awaiting task cancels a running body")
    func cancelledDuring() async throws {
        let harness = ActionTestHarness()
        let probe = Probe()
        let task = Task {
            await harness.session.performDetailed(
                AsyncFeature.spinScriptedA,
                input: AsyncScript("d", [.spinUntilCancelled(checking: true)], probe: probe),
                presenter: ()
            )
        }
        #expect(await eventually { probe.events.contains("d spinning") })
        task.cancel()
        let outcome = await task.value
        let error = try #require(outcome.simplifiedOutcome.error as? ActionCancellationError)
        #expect(error.bodyStarted == true)
        #expect(harness.timeline.snapshot().first?.outcome == .cancelled)
        #expect(harness.timeline.textDump().contains("→ cancelled"))
    }

    @Test("a body that ignores cancellation completes normally")
    func ignoresCancellation() async {
        let harness = ActionTestHarness()
        let probe = Probe()
        let task = Task {
            await harness.session.perform(
                AsyncFeature.spinScriptedB,
                input: AsyncScript("i", [.spinUntilCancelled(checking: false)], probe: probe),
                presenter: ()
            )
        }
        #expect(await eventually { probe.events.contains("i spinning") })
        task.cancel()
        #expect(await task.value.isSuccess)
        #expect(probe.events.last == "i end")
    }

    @Test("async bodies on one queue never interleave, and run in the order performed")
    func serialGuarantee() async {
        let harness = ActionTestHarness()
        let probe = Probe()
        let gate = DispatchQueueMarker.marker(for: SerialTestQueue.queue).gate
        let first = harness.start(
            AsyncFeature.serialScripted,
            input: AsyncScript("A", [.waitFor("A")], probe: probe),
            presenter: ()
        )
        #expect(await eventually { probe.events.contains("waiting A") })
        let second = harness.start(
            AsyncFeature.serialScripted,
            input: AsyncScript("B", [.succeed], probe: probe),
            presenter: ()
        )
        #expect(await eventually { gate.waitingCount == 1 })
        #expect(probe.events == ["A start on serial-test", "waiting A"])
        probe.release("A")
        _ = await first.outcome()
        _ = await second.outcome()
        #expect(
            probe.events == [
                "A start on serial-test", "waiting A", "A resumed on serial-test", "A end",
                "B start on serial-test", "B end",
            ]
        )
    }

    @Test("a body that performs another action on its own queue does not wait for itself")
    func reentrantNestedPerform() async {
        let harness = ActionTestHarness()
        let probe = Probe()
        let outcome = await harness.perform(
            AsyncFeature.scripted,
            input: AsyncScript("outer", [.performNested(harness.session)], probe: probe),
            presenter: ()
        )
        #expect(outcome.isSuccess)
        #expect(
            probe.events == [
                "outer start on serial-async", "outer.nested start on serial-async", "outer.nested end",
                "nested succeeded", "outer end",
            ]
        )
    }

    @Test("a main-actor presenter is driven from a background caller")
    func mainActorPresenter() async {
        let harness = ActionTestHarness()
        let presenter = await MainActor.run { BannerPresenter() }
        let outcome = await Task.detached {
            await harness.session.perform(AsyncFeature.showBanner, input: "Sale", presenter: presenter)
        }.value
        #expect(outcome.isSuccess)
        #expect(await presenter.shown == ["Sale", "Sale again"])
        #expect(await presenter.ranOnMainQueue == [true, true])
        #expect(harness.timeline.snapshot().first?.actionName == "Show Banner")
    }

    @Test("the harness drives async actions the same way as callback actions")
    func harnessDrivesAsync() async {
        let harness = ActionTestHarness()
        let outcome = await harness.perform(AsyncFeature.trivial, input: .noInput, presenter: ())
        #expect(outcome.isSuccess)
        #expect(harness.recorder.beganActionNames == ["Trivial Async"])
        harness.checkDiagnostics()
    }
}
