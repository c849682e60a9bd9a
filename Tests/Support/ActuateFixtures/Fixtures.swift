import ActuateTesting
import Dispatch
import Foundation
import Synchronization

@testable import ActuateCore

/// Queues shared by the fixtures, each tagged so that a body can tell which queue it runs on.
enum TestQueues {
    static let key = DispatchSpecificKey<String>()
    static let background = tagged("background")
    static let other = tagged("other")
    static let serialAsync = tagged("serial-async")
    static let suspendable = tagged("suspendable")

    static func tagged(_ name: String) -> DispatchQueue {
        let queue = DispatchQueue(label: "actuate.tests.\(name)")
        queue.setSpecific(key: key, value: name)
        return queue
    }

    /// The tag of the queue the caller runs on, or nil.
    static var current: String? { DispatchQueue.getSpecific(key: key) }
}

/// A mutable box passed as an action's input, so that a static action can talk to the test that performs it.
final class Probe: Loggable, @unchecked Sendable {
    // Safe: every field is behind `lock`.
    private let lock = NSLock()
    private var _events: [String] = []
    private var _deferred: CompletionRequirement<ActionPerformOutcome>.DeferredStatus?
    private var _continuations: [String: CheckedContinuation<Void, Never>] = [:]

    var loggingDescription: String { "probe" }

    func log(_ event: String) {
        lock.withLock { _events.append(event) }
    }

    var events: [String] { lock.withLock { _events } }

    func keep(_ status: CompletionRequirement<ActionPerformOutcome>.DeferredStatus) {
        lock.withLock { _deferred = status }
    }

    /// The kept status, if any.
    var keptStatus: CompletionRequirement<ActionPerformOutcome>.DeferredStatus? { lock.withLock { _deferred } }

    /// Completes the kept status and forgets it.
    func completeKept(_ outcome: ActionPerformOutcome) {
        let status = lock.withLock { () -> CompletionRequirement<ActionPerformOutcome>.DeferredStatus? in
            defer { _deferred = nil }
            return _deferred
        }
        status?.completed(outcome)
    }

    /// Completes the kept status without forgetting it, so that it can be completed again.
    func completeKeptAgain(_ outcome: ActionPerformOutcome) {
        lock.withLock { _deferred }?.completed(outcome)
    }

    /// Suspends the caller until ``release(_:)`` is called with the same name.
    func wait(_ name: String) async {
        await withCheckedContinuation { continuation in
            lock.withLock { _continuations[name] = continuation }
            log("waiting \(name)")
        }
    }

    /// Resumes the caller suspended in ``wait(_:)``; returns false if nobody waits yet.
    @discardableResult
    func release(_ name: String) -> Bool {
        let continuation = lock.withLock { _continuations.removeValue(forKey: name) }
        continuation?.resume()
        return continuation != nil
    }
}

/// The presenter of the greeting fixtures: a mock that records typed calls.
final class GreetingPresenter: Sendable {
    enum Call: Equatable, Sendable {
        case hello(String)
        case queue(String)
    }

    let calls = Calls<Call>()
}

final class SayHelloAction: Action {
    typealias InputType = String
    typealias PresenterType = GreetingPresenter
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(
        context: ActionContext<String>,
        presenter: GreetingPresenter,
        completion: Completion
    )
        -> Completion.Status
    {
        presenter.calls.record(.hello(context.input))
        presenter.calls.record(.queue(TestQueues.current ?? "none"))
        return completion.completedSync(.success)
    }
}

final class NoOpAction: Action {
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class NeverDeclaredAction: Action {
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

/// Logs to its probe and completes however the probe's test asks: later, twice, or never.
final class ProbeAction: Action {
    typealias InputType = Probe
    typealias PresenterType = GreetingPresenter
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(
        context: ActionContext<Probe>,
        presenter: GreetingPresenter,
        completion: Completion
    )
        -> Completion.Status
    {
        context.input.log("body on \(TestQueues.current ?? "none")")
        let status = completion.willCompleteAsync()
        context.input.keep(status)
        return status
    }
}

/// Completes synchronously, then again through a deferred status.
final class CompletesTwiceAction: Action {
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        let deferred = completion.willCompleteAsync()
        deferred.completed(.success)
        deferred.completed(.failure(error: TestError.boom))
        return deferred
    }
}

/// Returns a status that belongs to a requirement it made itself.
final class ForeignStatusAction: Action {
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        let stranger = Completion(completionHandler: { _, _ in })
        return stranger.completedSync(.success)
    }
}

/// Returns a deferred status of a requirement it made itself.
final class ForeignDeferredStatusAction: Action {
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        let stranger = Completion(completionHandler: { _, _ in })
        return stranger.willCompleteAsync()
    }
}

final class FailingAction: Action {
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.failureWithFeatureTermination(error: TestError.boom))
    }
}

final class HiddenAction: Action {
    static var queue: DispatchQueue { TestQueues.background }
    static var hideFromTimeline: Bool { true }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

/// Sign-in input that keeps its password out of every description.
struct SignInInput: Loggable {
    var email: String
    var password: Redacted<String>
    var loggingDescription: String { "\(email), password \(password.loggingDescription)" }
}

final class SignInAction: Action {
    typealias InputType = SignInInput
    static var queue: DispatchQueue { TestQueues.background }

    static func perform(
        context: ActionContext<SignInInput>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        completion.completedSync(context.input.password.value.isEmpty ? .failure(error: TestError.boom) : .success)
    }
}

/// Runs on a queue that tests suspend, to show that performing never blocks the caller.
final class SuspendableQueueAction: Action {
    typealias InputType = Probe
    static var queue: DispatchQueue { TestQueues.suspendable }

    static func perform(context: ActionContext<Probe>, presenter: Void, completion: Completion) -> Completion.Status {
        context.input.log("body")
        return completion.completedSync(.success)
    }
}

enum TestError: Error, Equatable {
    case boom
}

final class GreetingFeature: Feature {
    static let sayHello = action(SayHelloAction.self)
    static let noOp = action(NoOpAction.self)
    static let undeclared = action(NeverDeclaredAction.self)
    static let probe = action(ProbeAction.self)
    static let completesTwice = action(CompletesTwiceAction.self)
    static let foreignStatus = action(ForeignStatusAction.self)
    static let foreignDeferredStatus = action(ForeignDeferredStatusAction.self)
    static let failing = action(FailingAction.self)
    static let hidden = action(HiddenAction.self)
    static let signIn = action(SignInAction.self)
    static let suspendable = action(SuspendableQueueAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.publish(sayHello)
        actions.declare(noOp)
        actions.declare(probe)
        actions.declare(completesTwice)
        actions.declare(foreignStatus)
        actions.declare(foreignDeferredStatus)
        actions.declare(failing)
        actions.declare(hidden)
        actions.declare(signIn)
        actions.declare(suspendable)
    }
}

/// Waits, yielding, until `condition` holds; fails once `limit` of real time has passed. No sleeping.
///
/// The limit is a safety net, generous on purpose: under the thread sanitizer, with every core busy with other
/// suites, a queue can wait many seconds for a thread. A count of yields is no such net: yields come fast while
/// the work they wait for has no thread.
func eventually(within limit: Duration = .seconds(120), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}
