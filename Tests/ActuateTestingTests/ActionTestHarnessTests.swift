import Dispatch
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuatePlugins
@testable import ActuateTesting

@Suite("Action test harness")
struct ActionTestHarnessTests {
    @Test("a one-action test needs no setup beyond the harness and a typed mock")
    func oneActionTest() async {
        let harness = ActionTestHarness()
        let presenter = GreetingPresenter()
        #expect(await harness.perform(GreetingFeature.sayHello, input: "Ada", presenter: presenter).isSuccess)
        #expect(presenter.calls.recorded == [.hello("Ada"), .queue("background")])
    }

    @Test("short forms perform actions that take no input, drive no presenter, or neither")
    func shortForms() async {
        let harness = ActionTestHarness()
        let probe = Probe()
        #expect(await harness.perform(GreetingFeature.noOp).isSuccess)
        #expect(await harness.perform(GreetingFeature.suspendable, input: probe).isSuccess)
        #expect(await harness.perform(ShortFormFeature.presenterOnly, presenter: GreetingPresenter()).isSuccess)
        #expect(await harness.start(GreetingFeature.noOp).outcome()?.isSuccess == true)
        #expect(await harness.start(GreetingFeature.suspendable, input: probe).outcome()?.isSuccess == true)
        let pending = harness.start(ShortFormFeature.presenterOnly, presenter: GreetingPresenter())
        #expect(await pending.outcome()?.isSuccess == true)
        #expect(
            harness.recorder.completedActionNames == [
                "No Op", "Suspendable Queue", "Presenter Only", "No Op",
                "Suspendable Queue", "Presenter Only",
            ]
        )
    }

    @Test("an action that never completes fails the test and returns a failure outcome")
    func neverCompleted() async throws {
        let harness = ActionTestHarness(realTimeLimit: .milliseconds(200))
        let probe = Probe()
        var outcome: ActionPerformOutcome?
        await withKnownIssue {
            outcome = await harness.perform(GreetingFeature.probe, input: probe, presenter: GreetingPresenter())
        } matching: { issue in
            issue.description.contains("'Probe' never completed")
        }
        let error = try #require(outcome?.error as? ActionNeverCompletedError)
        #expect(error.actionName == "Probe")
        #expect(error.requestID != nil)
        probe.completeKept(.success)
    }

    @Test("an unexpected diagnostic fails the test with the diagnostic's message")
    func unexpectedDiagnosticFails() async {
        await withKnownIssue {
            let harness = ActionTestHarness()
            await harness.perform(GreetingFeature.completesTwice)
            harness.checkDiagnostics()
        } matching: { issue in
            issue.description.contains("Unexpected completedTwice diagnostic for 'Completes Twice'")
                && issue.description.contains("The completion requirement was completed more than once")
                && issue.description.contains("harness.expectDiagnostic(.completedTwice)")
        }
    }

    @Test("a diagnostic left unaccounted for fails the test when the harness is released")
    func unexpectedDiagnosticFailsAtTheEnd() async {
        await withKnownIssue {
            let harness = ActionTestHarness()
            await harness.perform(GreetingFeature.undeclared)
        } matching: { issue in
            issue.description.contains("Unexpected undeclaredAction diagnostic for 'Never Declared'")
        }
    }

    @Test("a diagnostic from before a perform fails the test at that perform")
    func unexpectedDiagnosticFailsAtNextPerform() async {
        let harness = ActionTestHarness()
        await withKnownIssue {
            await harness.perform(GreetingFeature.foreignStatus)
            await harness.perform(GreetingFeature.noOp)
        } matching: { issue in
            issue.description.contains("Unexpected foreignCompletionStatus diagnostic")
        }
        #expect(harness.diagnostics.kinds == [.foreignCompletionStatus])
    }

    @Test("a double completion is reported deterministically, before perform returns", arguments: 0..<20)
    func doubleCompletionNeverRaces(_ attempt: Int) async {
        let harness = ActionTestHarness()
        await harness.perform(GreetingFeature.completesTwice)
        #expect(harness.diagnostics.kinds == [.completedTwice], "attempt \(attempt)")
        harness.expectDiagnostic(.completedTwice)
    }

    @Test("a diagnostic the test expects after the action does not fail it")
    func expectedAfterwards() async throws {
        let harness = ActionTestHarness()
        let outcome = await harness.perform(GreetingFeature.completesTwice)
        #expect(outcome.isSuccess)
        let diagnostic = try #require(harness.expectDiagnostic(.completedTwice))
        #expect(diagnostic.actionName == "Completes Twice")
    }

    @Test("diagnostics of kinds the harness was told to expect never fail the test")
    func expectedByKind() async {
        let harness = ActionTestHarness(expectedDiagnostics: [.completedTwice])
        await harness.perform(GreetingFeature.completesTwice)
        await harness.perform(GreetingFeature.completesTwice)
        harness.checkDiagnostics()
        #expect(harness.diagnostics.kinds == [.completedTwice, .completedTwice])
    }

    @Test("expecting a diagnostic that was never reported fails the test")
    func expectedButMissing() async {
        let harness = ActionTestHarness()
        await harness.perform(GreetingFeature.noOp)
        withKnownIssue {
            #expect(harness.expectDiagnostic(.neverCompleted) == nil)
        } matching: { issue in
            issue.description.contains("Expected a neverCompleted diagnostic, but none was reported")
        }
    }

    @Test("the watchdog's diagnostic on the virtual clock is strict too, and can be expected")
    func watchdogDiagnostic() async {
        let harness = ActionTestHarness(completionTimeout: .seconds(1))
        let probe = Probe()
        let pending = harness.start(GreetingFeature.probe, input: probe, presenter: GreetingPresenter())
        #expect(await eventually { probe.keptStatus != nil })
        harness.scheduler.advance(by: .seconds(2))
        #expect(harness.expectDiagnostic(.neverCompleted)?.requestID == pending.requestID)
        probe.completeKept(.success)
        #expect(await pending.outcome()?.isSuccess == true)
    }

    @Test("completions and diagnostics are matched to their request by id, not by action name")
    func matchedByRequestID() async throws {
        let harness = ActionTestHarness()
        let first = Probe()
        let second = Probe()
        let firstPending = harness.start(GreetingFeature.probe, input: first, presenter: GreetingPresenter())
        let secondPending = harness.start(GreetingFeature.probe, input: second, presenter: GreetingPresenter())
        let ids = try [#require(firstPending.requestID), #require(secondPending.requestID)]
        #expect(ids[0] != ids[1])
        #expect(await eventually { first.keptStatus != nil && second.keptStatus != nil })
        second.completeKeptAgain(.failure(error: TestError.boom))
        first.completeKept(.success)
        #expect(await firstPending.outcome()?.isSuccess == true)
        #expect(await secondPending.outcome()?.error as? TestError == .boom)
        second.completeKeptAgain(.success)
        withKnownIssue {
            harness.checkDiagnostics()
        } matching: { issue in
            issue.description.contains("(request #\(ids[1]))")
        }
    }

    @Test("harnesses are isolated from each other")
    func isolated() async {
        let first = ActionTestHarness()
        let second = ActionTestHarness()
        await first.perform(GreetingFeature.noOp)
        #expect(first.timeline.snapshot().count == 1)
        #expect(second.timeline.snapshot().isEmpty)
        #expect(second.recorder.events.isEmpty)
    }

    @Test("a typed call record is Sendable and compares values")
    func typedCalls() async {
        let calls = Calls<GreetingPresenter.Call>()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<100 { group.addTask { calls.record(.hello("\(index)")) } }
        }
        #expect(calls.count == 100)
        #expect(Set(calls.recorded.map { "\($0)" }).count == 100)
        calls.removeAll()
        calls.record(.queue("main"))
        #expect(calls.recorded == [.queue("main")])
        #expect(calls.last == .queue("main"))
        #expect(calls.description == #"[ActuateFixtures.GreetingPresenter.Call.queue("main")]"#)
    }
}

/// Drives a presenter and takes no input, for the short form that passes only a presenter.
final class PresenterOnlyAction: Action {
    typealias PresenterType = GreetingPresenter
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(
        context: ActionContext<NoInput>,
        presenter: GreetingPresenter,
        completion: Completion
    )
        -> Completion.Status
    {
        presenter.calls.record(.hello("nobody"))
        return completion.completedSync(.success)
    }
}

final class ShortFormFeature: Feature {
    static let presenterOnly = action(PresenterOnlyAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(presenterOnly)
    }
}
