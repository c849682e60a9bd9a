import ActuateTestSupport
import Dispatch
import Foundation
import Synchronization

@testable import ActuateCore

// The feature, actions and queues of NestedChainStressTests. Three serial queues ("chain lanes"); on each, a
// callback action and an async action that perform the next hop of a chain and complete when it has, so that a
// chain such as 0 → 1 → 2 → 0 holds every queue it passed through in a nested action at once.

/// One step of a chain: the lane whose queue the action runs on, and whether the action is a callback action or
/// an async one.
struct RelayHop: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Sendable, Hashable {
        /// Promises to complete, performs the next hop with a completion handler and completes from it.
        case callback
        /// Awaits the next hop in its async body.
        case async
    }

    var lane: Int
    var kind: Kind

    var description: String { "\(kind == .callback ? "c" : "a")\(lane)" }
}

/// The input of every chain action: the chain, where in it this action is, and the test's log of visits.
struct RelayInput: Loggable {
    let session: ActionSession
    let log: RelayLog
    /// The chain's number in the test.
    let chain: Int
    let path: [RelayHop]
    let position: Int
    /// Whether the last hop fails; the failure then travels back to the chain's caller.
    let lastHopFails: Bool

    var hop: RelayHop { path[position] }
    var isLast: Bool { position == path.count - 1 }

    /// The input of the next hop.
    var next: RelayInput {
        RelayInput(
            session: session,
            log: log,
            chain: chain,
            path: path,
            position: position + 1,
            lastHopFails: lastHopFails
        )
    }

    var loggingDescription: String { "chain \(chain) hop \(position) \(hop)" }
}

/// The error the last hop of a failing chain completes with.
struct RelayFailure: Error {}

/// The three serial queues of the chain actions, each marked so an action can check it runs on its own.
enum RelayLanes {
    static let key = DispatchSpecificKey<Int>()
    private static let queues: [DispatchQueue] = (0..<3).map { index in
        let queue = DispatchQueue(label: "actuate.tests.chain.\(index)")
        queue.setSpecific(key: key, value: index)
        return queue
    }

    static func queue(_ index: Int) -> DispatchQueue { queues[index] }

    /// The lane whose queue the caller runs on, or nil.
    static var current: Int? { DispatchQueue.getSpecific(key: key) }
}

/// Records, for one test, every hop each chain visited and every callback hop that ran off its lane's queue.
final class RelayLog: Sendable {
    private struct State {
        var visits: [Int: [Int]] = [:]
        var offLane: [String] = []
        var hopCount = 0
    }

    private let state = Mutex(State())

    /// Records that the hop of `input` ran; `lane` is the lane whose queue it found itself on, if it checks.
    func visit(_ input: RelayInput, checkingLane: Bool) {
        let actual = checkingLane ? RelayLanes.current : input.hop.lane
        state.withLock { state in
            state.visits[input.chain, default: []].append(input.position)
            state.hopCount += 1
            if actual != input.hop.lane {
                state.offLane.append("\(input.loggingDescription) ran on lane \(actual.map(String.init) ?? "none")")
            }
        }
    }

    /// The positions each chain visited, in the order they ran.
    var visits: [Int: [Int]] { state.withLock { $0.visits } }
    /// How many hops have run so far, over every chain: the progress a stalled run stops making.
    var hopCount: Int { state.withLock { $0.hopCount } }
    /// Callback hops that ran on another queue than their lane's.
    var offLane: [String] { state.withLock { $0.offLane } }
}

protocol RelayLane: Sendable {
    static var index: Int { get }
}

enum RelayLane0: RelayLane { static var index: Int { 0 } }
enum RelayLane1: RelayLane { static var index: Int { 1 } }
enum RelayLane2: RelayLane { static var index: Int { 2 } }

/// A callback hop: performs the next hop, if any, and completes with its outcome.
final class RelayCallbackAction<Lane: RelayLane>: Action {
    typealias InputType = RelayInput
    static var name: String { "Relay Callback \(Lane.index)" }
    static var queue: DispatchQueue { RelayLanes.queue(Lane.index) }

    static func perform(
        context: ActionContext<RelayInput>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        let input = context.input
        input.log.visit(input, checkingLane: true)
        guard !input.isLast else {
            return completion.completedSync(input.lastHopFails ? .failure(error: RelayFailure()) : .success)
        }
        let status = completion.willCompleteAsync()
        RelayPerformer.perform(input.next) { succeeded in
            status.completed(succeeded ? .success : .failure(error: RelayFailure()))
        }
        return status
    }
}

/// An async hop: awaits the next hop, if any, and returns its outcome.
final class RelayAsyncAction<Lane: RelayLane>: AsyncAction {
    typealias InputType = RelayInput
    static var name: String { "Relay Async \(Lane.index)" }
    static var queue: DispatchQueue { RelayLanes.queue(Lane.index) }

    static func perform(context: ActionContext<RelayInput>, presenter: Void) async throws -> ActionPerformOutcome {
        let input = context.input
        input.log.visit(input, checkingLane: false)
        guard !input.isLast else {
            await Task.yield()
            return input.lastHopFails ? .failure(error: RelayFailure()) : .success
        }
        let succeeded = await RelayPerformer.performAsync(input.next)
        return succeeded ? .success : .failure(error: RelayFailure())
    }
}

final class RelayFeature: Feature {
    static func prepare(actions: FeatureActionsBuilder) {
        declare(RelayLane0.self, in: actions)
        declare(RelayLane1.self, in: actions)
        declare(RelayLane2.self, in: actions)
    }

    private static func declare<L: RelayLane>(_ lane: L.Type, in actions: FeatureActionsBuilder) {
        actions.declare(action(RelayCallbackAction<L>.self))
        actions.declare(action(RelayAsyncAction<L>.self))
    }
}

/// Performs the hop an input is at, with the binding for its lane and kind.
enum RelayPerformer {
    private typealias Perform = @Sendable (RelayInput, @escaping @Sendable (_ succeeded: Bool) -> Void) -> Void
    private typealias PerformAsync = @Sendable (RelayInput) async -> Bool

    private static let callbacks: [[Perform]] = [
        performers(RelayLane0.self), performers(RelayLane1.self), performers(RelayLane2.self),
    ]
    private static let asyncs: [[PerformAsync]] = [
        asyncPerformers(RelayLane0.self), asyncPerformers(RelayLane1.self), asyncPerformers(RelayLane2.self),
    ]

    /// Performs `input`'s hop with a completion handler.
    static func perform(_ input: RelayInput, done: @escaping @Sendable (_ succeeded: Bool) -> Void) {
        callbacks[input.hop.lane][input.hop.kind == .callback ? 0 : 1](input, done)
    }

    /// Performs `input`'s hop and awaits its outcome.
    static func performAsync(_ input: RelayInput) async -> Bool {
        await asyncs[input.hop.lane][input.hop.kind == .callback ? 0 : 1](input)
    }

    /// Starts a task that awaits `input`'s hop, as async code in an app would, and calls `done` with the outcome.
    ///
    /// The task prefers an executor of its own (``OwnQueueExecutor``) over the cooperative pool: the stress tests
    /// check the dispatcher, and give up once no hop has run for a minute, which a chain whose caller waits for a
    /// pool held by CPU-bound suites could otherwise do without anything being wrong.
    static func startAwaiting(_ input: RelayInput, done: @escaping @Sendable (_ succeeded: Bool) -> Void) {
        Task(executorPreference: awaitingExecutor) { done(await performAsync(input)) }
    }

    /// The executor of the tasks ``startAwaiting(_:done:)`` starts. Its tasks only start a perform and hear its
    /// outcome, so one serial queue is enough.
    private static let awaitingExecutor = OwnQueueExecutor(label: "actuate.tests.chain.awaiting")

    private static func performers<L: RelayLane>(_ lane: L.Type) -> [Perform] {
        let callback = RelayFeature.action(RelayCallbackAction<L>.self)
        let async = RelayFeature.action(RelayAsyncAction<L>.self)
        return [
            { input, done in input.session.perform(callback, input: input) { done($0.isSuccess) } },
            { input, done in input.session.perform(async, input: input) { done($0.isSuccess) } },
        ]
    }

    private static func asyncPerformers<L: RelayLane>(_ lane: L.Type) -> [PerformAsync] {
        let callback = RelayFeature.action(RelayCallbackAction<L>.self)
        let async = RelayFeature.action(RelayAsyncAction<L>.self)
        return [
            { input in await input.session.perform(callback, input: input).isSuccess },
            { input in await input.session.perform(async, input: input).isSuccess },
        ]
    }
}
