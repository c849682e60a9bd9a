import ActuateTesting
import Dispatch
import Foundation

@testable import ActuateCore
@testable import ActuateFixtures

/// What an async fixture should do, passed as its input.
final class AsyncScript: Loggable, @unchecked Sendable {
    // Safe: immutable apart from the thread-safe probe.
    enum Step: Sendable {
        case succeed
        case fail
        case waitFor(String)
        case spinUntilCancelled(checking: Bool)
        case performNested(ActionSession)
        /// Logs which task the body runs in, against ``AsyncScriptTrace/awaitingTask``.
        case logTask
    }

    let name: String
    let steps: [Step]
    let probe: Probe

    init(_ name: String, _ steps: [Step], probe: Probe) {
        self.name = name
        self.steps = steps
        self.probe = probe
    }

    var loggingDescription: String { name }
}

/// A task-local value a test sets around an `await`, to see which task a body runs in.
enum AsyncScriptTrace {
    /// The hash of the task that awaits the perform.
    @TaskLocal static var awaitingTask: Int?

    /// The hash of the current task.
    static var currentTask: Int? { withUnsafeCurrentTask { $0?.hashValue } }

    /// Which task the body runs in: the awaiting task, another task that inherited its task-locals, or a task
    /// that did not.
    static var description: String {
        guard let awaitingTask else { return "a task that sees no awaiting task" }
        return currentTask == awaitingTask ? "the awaiting task" : "another task"
    }
}

/// Names a queue for a variant of ``ScriptedAsyncAction``, so that tests whose bodies hold a queue's gate for
/// a while don't hold up each other.
protocol ScriptQueue {
    static var queue: DispatchQueue { get }
}

enum SharedScriptQueue: ScriptQueue { static let queue = TestQueues.serialAsync }
enum SerialTestQueue: ScriptQueue { static let queue = TestQueues.tagged("serial-test") }
enum ResumeQueue: ScriptQueue { static let queue = TestQueues.tagged("resume") }
enum SpinQueueA: ScriptQueue { static let queue = TestQueues.tagged("spin-a") }
enum SpinQueueB: ScriptQueue { static let queue = TestQueues.tagged("spin-b") }

final class ScriptedAsyncAction<Q: ScriptQueue>: AsyncAction {
    typealias InputType = AsyncScript
    static var queue: DispatchQueue { Q.queue }

    static func perform(context: ActionContext<AsyncScript>, presenter: Void) async throws -> ActionPerformOutcome {
        let script = context.input
        script.probe.log("\(script.name) start on \(TestQueues.current ?? "none")")
        for step in script.steps {
            switch step {
            case .succeed:
                break
            case .fail:
                throw TestError.boom
            case .waitFor(let signal):
                await script.probe.wait(signal)
                script.probe.log("\(script.name) resumed on \(TestQueues.current ?? "none")")
            case .spinUntilCancelled(let checking):
                script.probe.log("\(script.name) spinning")
                while !Task.isCancelled { await Task.yield() }
                if checking { try Task.checkCancellation() }
            case .performNested(let session):
                let nested = AsyncScript("\(script.name).nested", [.succeed], probe: script.probe)
                let outcome = await session.perform(AsyncFeature.scripted, input: nested)
                script.probe.log("nested \(outcome.isSuccess ? "succeeded" : "failed")")
            case .logTask:
                let queue = TestQueues.current ?? "none"
                script.probe.log("\(script.name) runs in \(AsyncScriptTrace.description) on \(queue)")
            }
        }
        script.probe.log("\(script.name) end")
        return .success
    }
}

final class TrivialAsyncAction: AsyncAction {
    static var queue: DispatchQueue { TestQueues.other }

    static func perform(context: ActionContext<NoInput>, presenter: Void) async throws -> ActionPerformOutcome {
        .success
    }
}

/// A presenter isolated to the main actor, as UI presenters are.
@MainActor
final class BannerPresenter {
    private(set) var shown: [String] = []
    private(set) var ranOnMainQueue: [Bool] = []

    func show(_ text: String) {
        shown.append(text)
        ranOnMainQueue.append(DispatchQueueMarker.marker(for: .main).isCurrent)
    }
}

final class ShowBannerAction: UIAction {
    typealias InputType = String
    typealias PresenterType = BannerPresenter

    @MainActor
    static func perform(context: ActionContext<String>, presenter: BannerPresenter) async throws -> ActionPerformOutcome
    {
        presenter.show(context.input)
        await Task.yield()
        presenter.show(context.input + " again")
        return .success
    }
}

final class AsyncFeature: Feature {
    static let scripted = action(ScriptedAsyncAction<SharedScriptQueue>.self)
    static let serialScripted = action(ScriptedAsyncAction<SerialTestQueue>.self)
    static let resumeScripted = action(ScriptedAsyncAction<ResumeQueue>.self)
    static let spinScriptedA = action(ScriptedAsyncAction<SpinQueueA>.self)
    static let spinScriptedB = action(ScriptedAsyncAction<SpinQueueB>.self)
    static let trivial = action(TrivialAsyncAction.self)
    static let showBanner = action(ShowBannerAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(scripted)
        actions.declare(serialScripted)
        actions.declare(resumeScripted)
        actions.declare(spinScriptedA)
        actions.declare(spinScriptedB)
        actions.declare(trivial)
        actions.declare(showBanner)
    }
}
