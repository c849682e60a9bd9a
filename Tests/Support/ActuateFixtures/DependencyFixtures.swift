import Dispatch
import Synchronization

@testable import ActuateCore

/// A fake server that records what it was sent.
protocol GreetingServer: Sendable {
    func send(_ text: String) async throws -> String
    /// The same answer, at once: for callback bodies, which then complete on their queue without waiting for a
    /// task of the cooperative pool (a loaded parallel run can keep it busy past the harness's limit).
    func label(_ text: String) -> String
}

extension GreetingServer {
    func send(_ text: String) async throws -> String { label(text) }
}

/// The live server: tests must never reach it.
struct LiveGreetingServer: GreetingServer {
    static let reached = Atomic<Int>(0)

    func label(_ text: String) -> String {
        Self.reached.add(1, ordering: .relaxed)
        return "live:\(text)"
    }
}

/// A server that answers with a fixed prefix.
struct PrefixGreetingServer: GreetingServer {
    let prefix: String

    func label(_ text: String) -> String { "\(prefix):\(text)" }
}

enum GreetingServerKey: DependencyKey {
    static var liveValue: any GreetingServer { LiveGreetingServer() }
}

/// A key whose test value is safe in every test.
enum GreetingSuffixKey: DependencyKey {
    static var liveValue: String { "live-suffix" }
    static var testValue: String? { "test-suffix" }
}

/// What a greeting action tells its presenter.
final class DependencyPresenter: Sendable {
    let shown = Mutex<[String]>([])

    func show(_ text: String) { shown.withLock { $0.append(text) } }
    var recorded: [String] { shown.withLock { $0 } }
}

/// Reads the server in a callback body.
final class CallbackGreetAction: Action {
    typealias InputType = String
    typealias PresenterType = DependencyPresenter

    static let queue = DispatchQueue(label: "dependency-tests.callback-greet")

    static func perform(
        context: ActionContext<String>,
        presenter: DependencyPresenter,
        completion: Completion
    ) -> Completion.Status {
        do {
            let server = try context.dependency(GreetingServerKey.self)
            let suffix = try context.dependency(GreetingSuffixKey.self)
            presenter.show(server.label(context.input) + "/" + suffix)
            return completion.completedSync(.success)
        } catch {
            return completion.completedSync(.failure(error: error))
        }
    }
}

/// Reads the server in an async body, on a queue of its own.
final class AsyncGreetAction: AsyncAction {
    typealias InputType = String
    typealias PresenterType = DependencyPresenter

    static let queue = DispatchQueue(label: "dependency-tests.async-greet")

    static func perform(
        context: ActionContext<String>,
        presenter: DependencyPresenter
    ) async throws
        -> ActionPerformOutcome
    {
        presenter.show(try await context.dependency(GreetingServerKey.self).send(context.input))
        return .success
    }
}

/// Performs ``AsyncGreetAction`` through the main session (another dispatcher), which must inherit the values.
final class NestedGreetAction: AsyncAction {
    typealias InputType = String
    typealias PresenterType = DependencyPresenter

    static let queue = DispatchQueue(label: "dependency-tests.nested-greet")

    static func perform(
        context: ActionContext<String>,
        presenter: DependencyPresenter
    ) async throws
        -> ActionPerformOutcome
    {
        let outcome = await DependencyFeature.asyncGreet.perform(input: context.input, presenter: presenter)
        return outcome.isSuccess ? .success : .failure(error: outcome.error ?? CancellationError())
    }
}

/// Performs ``CallbackGreetAction`` from a callback body, through the main session.
final class NestedCallbackGreetAction: Action {
    typealias InputType = String
    typealias PresenterType = DependencyPresenter

    static let queue = DispatchQueue(label: "dependency-tests.nested-callback-greet")

    static func perform(
        context: ActionContext<String>,
        presenter: DependencyPresenter,
        completion: Completion
    ) -> Completion.Status {
        let status = completion.willCompleteAsync()
        DependencyFeature.callbackGreet.perform(input: context.input, presenter: presenter) { outcome in
            status.completed(outcome.isSuccess ? .success : .failure(error: outcome.error ?? CancellationError()))
        }
        return status
    }
}

/// The queue a ``SleepingAction`` runs on: async bodies on one queue never interleave, so a test whose bodies must
/// not wait behind another test's (stuck on purpose) takes a lane of its own.
protocol SleepingLane {
    static var queue: DispatchQueue { get }
}

/// The lane the harness tests share.
enum SharedSleepingLane: SleepingLane {
    static let queue = DispatchQueue(label: "dependency-tests.sleeping")
}

/// The lane of the start-advance-value race alone.
enum RaceSleepingLane: SleepingLane {
    static let queue = DispatchQueue(label: "dependency-tests.sleeping-race")
}

/// The lane of the body nobody advances: it never wakes, so it holds its queue's gate for the rest of the process,
/// and a body of another test on the same lane would wait behind it until that test's real-time limit.
enum AbandonedSleepingLane: SleepingLane {
    static let queue = DispatchQueue(label: "dependency-tests.sleeping-abandoned")
}

/// Sleeps on a scheduler it is given as a dependency, then shows "slept"; twice when its input says so.
final class SleepingAction<Lane: SleepingLane>: AsyncAction {
    typealias InputType = Int
    typealias PresenterType = DependencyPresenter

    static var name: String { "Sleeping" }
    static var queue: DispatchQueue { Lane.queue }

    static func perform(
        context: ActionContext<Int>,
        presenter: DependencyPresenter
    ) async throws
        -> ActionPerformOutcome
    {
        let clock = try context.dependency(SleepClockKey.self)
        for round in 1...context.input {
            try await clock.sleep(for: .milliseconds(50))
            presenter.show("slept \(round)")
        }
        return .success
    }
}

/// The scheduler sleeping actions sleep on.
enum SleepClockKey: DependencyKey {
    static var liveValue: any ActuateScheduler { SystemScheduler.shared }
}

/// A callback action that never completes the status it returns.
final class NeverCompletingCallbackAction: Action {
    static let queue = DispatchQueue(label: "dependency-tests.never-completing")

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.willCompleteAsync()
    }
}

/// An async action that awaits a continuation no one resumes, until cancelled.
final class AwaitsForeverAction: AsyncAction {
    static let queue = DispatchQueue(label: "dependency-tests.awaits-forever")

    static func perform(context: ActionContext<NoInput>, presenter: Void) async throws -> ActionPerformOutcome {
        let never = AsyncStream<Void> { _ in }
        for await _ in never {}
        try Task.checkCancellation()
        return .success
    }
}

final class DependencyFeature: Feature {
    static let callbackGreet = action(CallbackGreetAction.self)
    static let asyncGreet = action(AsyncGreetAction.self)
    static let nestedGreet = action(NestedGreetAction.self)
    static let nestedCallbackGreet = action(NestedCallbackGreetAction.self)
    static let sleeping = action(SleepingAction<SharedSleepingLane>.self)
    static let racingSleep = action(SleepingAction<RaceSleepingLane>.self)
    static let abandonedSleep = action(SleepingAction<AbandonedSleepingLane>.self)
    static let neverCompletingCallback = action(NeverCompletingCallbackAction.self)
    static let awaitsForever = action(AwaitsForeverAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(callbackGreet)
        actions.declare(asyncGreet)
        actions.declare(nestedGreet)
        actions.declare(nestedCallbackGreet)
        actions.declare(sleeping)
        actions.declare(racingSleep)
        actions.declare(abandonedSleep)
        actions.declare(neverCompletingCallback)
        actions.declare(awaitsForever)
    }
}
