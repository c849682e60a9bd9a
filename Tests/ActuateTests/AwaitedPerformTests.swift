import Dispatch
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuateTesting

@Suite("Awaited async actions run their body in the awaiting task")
struct AwaitedPerformTests {
    @Test("an awaited body runs in the awaiting task, starting and resuming on the action's queue")
    func bodyRunsInAwaitingTask() async {
        let harness = ActionTestHarness()
        let probe = TaskProbe()
        let caller = currentTaskHash()
        let outcome = await harness.session.perform(AwaitedFeature.recordTask, input: probe)
        #expect(outcome.isSuccess)
        #expect(probe.bodyTask == caller)
        #expect(probe.queues == ["awaited", "awaited"])
        #expect(harness.recorder.completedActionNames == ["Task Recording"])
    }

    @Test("the caller's code after the await runs off the action's queue")
    func callerLeavesTheQueue() async {
        let harness = ActionTestHarness()
        _ = await harness.session.perform(AwaitedFeature.recordTask, input: TaskProbe())
        #expect(TestQueues.current == nil)
        #expect(!DispatchQueueMarker.isCurrent(TaskRecordingAction.queue))
        // A caller that runs on its own caller's executor, rather than hopping back to the generic one after each
        // call, must not be left on the action's queue either.
        #expect(await queueAfterAwaiting(in: harness.session) == nil)
    }

    /// The queue the code after an awaited perform runs on, in a function that inherits its caller's isolation.
    nonisolated(nonsending) private func queueAfterAwaiting(in session: ActionSession) async -> String? {
        _ = await session.perform(AwaitedFeature.recordTask, input: TaskProbe())
        return TestQueues.current
    }

    @Test("an awaited body sees the awaiting task's task-local values; a body performed with a callback does not")
    func taskLocalsReachAnAwaitedBody() async {
        let harness = ActionTestHarness()
        let awaited = TaskProbe()
        let called = TaskProbe()
        await TaskProbe.$callerMark.withValue("caller") {
            _ = await harness.session.perform(AwaitedFeature.recordTask, input: awaited)
            _ = await withCheckedContinuation { continuation in
                harness.session.perform(AwaitedFeature.recordTask, input: called) { continuation.resume(returning: $0) }
            }
        }
        #expect(awaited.callerMark == "caller")
        #expect(called.callerMark == nil)
    }

    @Test("performed with a callback, the body runs in a task of its own")
    func callbackPerformStartsATask() async {
        let harness = ActionTestHarness()
        let probe = TaskProbe()
        let caller = currentTaskHash()
        let outcome = await withCheckedContinuation { continuation in
            harness.session.perform(AwaitedFeature.recordTask, input: probe) { continuation.resume(returning: $0) }
        }
        #expect(outcome.isSuccess)
        #expect(probe.bodyTask != nil)
        #expect(probe.bodyTask != caller)
        #expect(probe.queues == ["awaited", "awaited"])
    }

    @Test("an awaited body that another awaited body performs on the same queue runs in that body's task")
    func nestedAwaitOnTheSameQueue() async {
        let harness = ActionTestHarness()
        let inner = TaskProbe()
        let outer = TaskProbe(nested: (harness.session, inner))
        let caller = currentTaskHash()
        let outcome = await harness.session.perform(AwaitedFeature.recordTask, input: outer)
        #expect(outcome.isSuccess)
        #expect(outer.bodyTask == caller)
        #expect(inner.bodyTask == caller)
        #expect(inner.queues == ["awaited", "awaited"])
        #expect(outer.nestedOutcome == true)
        // The outer body carries on on its queue after the nested await.
        #expect(outer.queues == ["awaited", "awaited", "awaited"])
    }
}

private func currentTaskHash() -> Int? {
    withUnsafeCurrentTask { $0?.hashValue }
}

/// Records the task an action's body ran in and the queues it ran on.
final class TaskProbe: Loggable, Sendable {
    private struct State {
        var bodyTask: Int?
        var queues: [String] = []
        var nestedOutcome: Bool?
        var callerMark: String?
    }

    /// A task-local value a test sets around a perform, to see whether the body sees it.
    @TaskLocal static var callerMark: String?

    private let state = Mutex(State())
    /// An action the body performs, awaiting it, before it ends.
    let nested: (session: ActionSession, probe: TaskProbe)?

    init(nested: (session: ActionSession, probe: TaskProbe)? = nil) {
        self.nested = nested
    }

    var loggingDescription: String { "task probe" }
    var bodyTask: Int? { state.withLock { $0.bodyTask } }
    var queues: [String] { state.withLock { $0.queues } }
    var nestedOutcome: Bool? { state.withLock { $0.nestedOutcome } }
    var callerMark: String? { state.withLock { $0.callerMark } }

    func recordStart() {
        let task = currentTaskHash()
        let queue = TestQueues.current ?? "none"
        let mark = Self.callerMark
        state.withLock { state in
            state.bodyTask = task
            state.queues.append(queue)
            state.callerMark = mark
        }
    }

    func recordResume() {
        let queue = TestQueues.current ?? "none"
        state.withLock { $0.queues.append(queue) }
    }

    func recordNested(_ succeeded: Bool) {
        let queue = TestQueues.current ?? "none"
        state.withLock { state in
            state.nestedOutcome = succeeded
            state.queues.append(queue)
        }
    }
}

final class TaskRecordingAction: AsyncAction {
    typealias InputType = TaskProbe
    static let queue = TestQueues.tagged("awaited")

    static func perform(context: ActionContext<TaskProbe>, presenter: Void) async throws -> ActionPerformOutcome {
        let probe = context.input
        probe.recordStart()
        await Task.yield()
        probe.recordResume()
        if let (session, nestedProbe) = probe.nested {
            let outcome = await session.perform(AwaitedFeature.recordTask, input: nestedProbe)
            probe.recordNested(outcome.isSuccess)
        }
        return .success
    }
}

final class AwaitedFeature: Feature {
    static let recordTask = action(TaskRecordingAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(recordTask)
    }
}
