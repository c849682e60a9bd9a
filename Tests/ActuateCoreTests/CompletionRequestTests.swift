import ActuateCore
import ActuateTesting
import Dispatch
import Synchronization
import Testing

// The dispatcher makes one request per dispatch and lends it, in place, to the completion notifier of a body that
// completes before it returns, on the body's own thread; a completion on any other thread is notified with a copy.
// These tests check that plugins hear the same request either way.

private enum CompletionRequestQueues {
    static let action = DispatchQueue(label: "actuate.tests.completion-request.action")
    static let completer = DispatchQueue(label: "actuate.tests.completion-request.completer")
}

/// The test's clock, handed to the body as its input, and where the body completes.
private final class ClockInput: Loggable, Sendable {
    let scheduler: TestScheduler
    let completesOnAnotherThread: Bool

    init(scheduler: TestScheduler, completesOnAnotherThread: Bool) {
        self.scheduler = scheduler
        self.completesOnAnotherThread = completesOnAnotherThread
    }

    var loggingDescription: String { completesOnAnotherThread ? "another thread" : "inline" }
}

/// Advances the clock by 3 ms, then completes before it returns: on its own thread, or on another one while it
/// waits.
private final class TimedAction: Action {
    static var queue: DispatchQueue { CompletionRequestQueues.action }

    static func perform(
        context: ActionContext<ClockInput>,
        presenter: Void,
        completion: Completion
    ) -> Completion.Status {
        let input = context.input
        input.scheduler.advance(by: .milliseconds(3))
        guard input.completesOnAnotherThread else { return completion.completedSync(.success) }
        let status = completion.willCompleteAsync()
        let completed = DispatchSemaphore(value: 0)
        CompletionRequestQueues.completer.async {
            status.completed(.success)
            completed.signal()
        }
        completed.wait()
        return status
    }
}

private final class CompletionRequestFeature: Feature {
    static let timed = action(TimedAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(timed)
    }
}

/// Records what each callback sees, and keeps the request it heard begin.
private final class RequestRecorder: ActionDispatchPlugin {
    struct Heard: Equatable {
        var phase: String
        var uniqueID: UInt64
        var completionUptimeNanoseconds: UInt64?
        var duration: Double?
        var inputDescription: String
    }

    private let state = Mutex<(heard: [Heard], kept: [ActionRequest<CompletionRequestFeature, TimedAction>])>(([], []))

    var heard: [Heard] { state.withLock { $0.heard } }
    var kept: [ActionRequest<CompletionRequestFeature, TimedAction>] { state.withLock { $0.kept } }

    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        let keptRequest = request as? ActionRequest<CompletionRequestFeature, TimedAction>
        state.withLock {
            $0.heard.append(Self.heard("begin", request))
            if let keptRequest { $0.kept.append(keptRequest) }
        }
    }

    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        state.withLock { $0.heard.append(Self.heard("complete", request)) }
    }

    private static func heard<F, A>(_ phase: String, _ request: ActionRequest<F, A>) -> Heard {
        Heard(
            phase: phase,
            uniqueID: request.uniqueID,
            completionUptimeNanoseconds: request.completionUptimeNanoseconds,
            duration: request.duration,
            inputDescription: request.header.inputDescription
        )
    }
}

@Suite("Completion request")
struct CompletionRequestTests {
    private func perform(completingOnAnotherThread: Bool) async throws -> (RequestRecorder, RequestRecorder) {
        let scheduler = TestScheduler()
        let dispatcher = ActionDispatcher(scheduler: scheduler, diagnostics: RecordingDiagnostics())
        let first = RequestRecorder()
        let second = RequestRecorder()
        dispatcher.add(plugin: first)
        dispatcher.add(plugin: second)
        let session = ActionSession(named: "completion-request", dispatcher: dispatcher)
        let input = ClockInput(scheduler: scheduler, completesOnAnotherThread: completingOnAnotherThread)
        let outcome = await session.perform(CompletionRequestFeature.timed, input: input, presenter: ())
        #expect(outcome.isSuccess)
        return (first, second)
    }

    private func expectSameRequest(_ recorder: RequestRecorder, describedAs description: String) throws {
        let heard = recorder.heard
        try #require(heard.count == 2)
        let start = try #require(recorder.kept.first).header.startUptimeNanoseconds
        #expect(heard[0].phase == "begin" && heard[1].phase == "complete")
        #expect(heard[0].uniqueID == heard[1].uniqueID)
        #expect(heard[0].completionUptimeNanoseconds == nil && heard[0].duration == nil)
        #expect(heard[1].completionUptimeNanoseconds == start + 3_000_000)
        #expect(heard[1].duration == 0.003)
        #expect(heard.allSatisfy { $0.inputDescription == description })
        // The request a plugin kept from the start is its own copy: the completion reading is not set on it.
        #expect(recorder.kept.count == 1 && recorder.kept[0].completionUptimeNanoseconds == nil)
    }

    @Test(
        "every plugin hears its begin request again at completion, with the completion reading",
        arguments: [(false, "inline"), (true, "another thread")]
    )
    func pluginsHearTheBeginRequestAtCompletion(completingOnAnotherThread: Bool, description: String) async throws {
        // Inline: the body completes before it returns. Another thread: it completes there while the body runs.
        let (first, second) = try await perform(completingOnAnotherThread: completingOnAnotherThread)
        try expectSameRequest(first, describedAs: description)
        try expectSameRequest(second, describedAs: description)
        #expect(first.heard == second.heard)
    }
}
