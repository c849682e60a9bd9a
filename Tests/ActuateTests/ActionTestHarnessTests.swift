import Actuate
import ActuateTesting
import Testing

@Suite("Action test harness")
struct ActionTestHarnessTests {
    @Test("fails the test clearly when an action never completes")
    func neverCompleted() async {
        let harness = ActionTestHarness(realTimeLimit: .milliseconds(200))
        let probe = Probe()
        await withKnownIssue {
            let outcome = await harness.perform(GreetingFeature.probe, input: probe, presenter: RecordingPresenter())
            #expect(outcome == nil)
        } matching: { issue in
            issue.description.contains("'Probe' never completed")
        }
        probe.completeKept(.success)
    }

    @Test("fails the test clearly when an action completes twice")
    func completedTwice() async {
        let harness = ActionTestHarness()
        await withKnownIssue {
            _ = await harness.perform(GreetingFeature.completesTwice, input: .noInput, presenter: ())
        } matching: { issue in
            issue.description.contains("'Completes Twice' completed more than once")
        }
    }

    @Test("harnesses are isolated from each other")
    func isolated() async {
        let first = ActionTestHarness()
        let second = ActionTestHarness()
        _ = await first.perform(GreetingFeature.noOp, input: .noInput, presenter: ())
        #expect(first.timeline.snapshot().count == 1)
        #expect(second.timeline.snapshot().isEmpty)
        #expect(second.recorder.events.isEmpty)
    }

    @Test("a recording presenter records calls with their arguments")
    func recordingPresenter() {
        let presenter = RecordingPresenter()
        presenter.record("show", 1, "two")
        presenter.record("hide")
        #expect(presenter.calls == ["show(1, two)", "hide"])
        presenter.removeAllCalls()
        #expect(presenter.calls.isEmpty)
    }
}
