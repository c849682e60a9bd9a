import Dispatch
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuateTesting

/// The harness's real-time limit counts from the moment the action's queue has run its body: a queue busy with
/// earlier work, or a machine too loaded to give it a thread, must not fail an action that did nothing wrong.
@Suite("Action test harness: the real-time limit")
struct ActionTestHarnessRealTimeLimitTests {
    @Test("time the action's queue spends on earlier work does not count against the limit")
    func busyQueueDoesNotCount() async {
        let harness = ActionTestHarness(realTimeLimit: .milliseconds(1))
        let gate = BusyQueueGate()
        gate.block()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { gate.open() }
        let outcome = await harness.perform(BusyQueueFeature.quick)
        #expect(outcome.isSuccess)
        #expect(gate.wasOpened, "the action ran only after the earlier work let go of its queue")
    }

    @Test("a started action's outcome(within:) counts from the moment its queue has run the body, too")
    func startedActionWaitsForItsQueue() async {
        let harness = ActionTestHarness()
        let gate = BusyQueueGate()
        gate.block()
        let pending = harness.start(BusyQueueFeature.quick)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { gate.open() }
        #expect(await pending.outcome(within: .milliseconds(1))?.isSuccess == true)
        #expect(gate.wasOpened)
    }

    @Test("the wait's timers do not keep the outcome alive once the wait is over")
    func timersHoldTheOutcomeWeakly() async {
        let harness = ActionTestHarness()
        let gate = BusyQueueGate()
        weak var weakPending: PendingActionOutcome?
        do {
            gate.block()
            let pending = harness.start(BusyQueueFeature.quick)
            weakPending = pending
            // The wait begins, and arms its timers, before the queue is free to run the action.
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { gate.open() }
            #expect(await pending.outcome()?.isSuccess == true)
        }
        // The completion that resumed the wait runs on the action's queue and may still be returning there, holding
        // the outcome for a moment: a block queued behind it runs once it has let go.
        await withCheckedContinuation { continuation in BusyQueueAction.queue.async { continuation.resume() } }
        // Its timers fire minutes from now; holding the outcome until then kept the error an outcome may hold
        // alive past the end of the run, which the leak checker reported.
        #expect(weakPending == nil)
    }

    @Test("a body that never returns fails the test once the cap has passed, saying its queue never ran it")
    func bodyNeverReturns() async throws {
        let harness = ActionTestHarness(
            sessionName: "test",
            completionTimeout: .seconds(10),
            realTimeLimit: .milliseconds(1),
            bodyReturnAllowance: .milliseconds(200),
            plugins: [],
            expectedDiagnostics: [],
            sourceLocation: #_sourceLocation
        )
        let gate = BusyQueueGate()
        gate.block()
        var outcome: ActionPerformOutcome?
        await withKnownIssue {
            outcome = await harness.perform(BusyQueueFeature.quick)
        } matching: { issue in
            issue.description.contains("'Quick' never completed: its queue had not run its body")
        }
        gate.open()
        let error = try #require(outcome?.error as? ActionNeverCompletedError)
        #expect(error.actionName == "Quick")
        #expect(error.limit == .milliseconds(201), "the error says how long the harness waited: limit and allowance")
    }
}

/// Holds ``BusyQueueFeature``'s queue with earlier work until it is opened.
private final class BusyQueueGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let opened = Mutex(false)

    var wasOpened: Bool { opened.withLock { $0 } }

    /// Puts work on the queue that holds it until ``open()``.
    func block() {
        BusyQueueAction.queue.async { [semaphore] in semaphore.wait() }
    }

    func open() {
        opened.withLock { $0 = true }
        semaphore.signal()
    }
}

private final class BusyQueueAction: Action {
    static let name = "Quick"
    static let queue = DispatchQueue(label: "actuate.tests.harness-busy-queue")

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

private final class BusyQueueFeature: Feature {
    static let quick = action(BusyQueueAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(quick)
    }
}
