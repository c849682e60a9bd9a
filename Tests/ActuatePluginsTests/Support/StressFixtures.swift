import Dispatch
import Foundation
import Synchronization

@testable import ActuateCore
@testable import ActuatePlugins

// The feature, actions and queues of DispatchStressTests. Four serial queues ("lanes"); on each, four kinds of
// action: one that completes synchronously, one that completes later from another thread, an async action, and
// one that performs a nested action on the next lane and completes when that one has.

/// The input of every stress action: the session to perform nested actions in, the test's monitor, and the
/// request's number.
struct StressInput: Loggable {
    let session: ActionSession
    let monitor: StressMonitor
    let number: Int
    /// Whether a synchronous action should fail.
    var fails: Bool { number % 7 == 0 }

    var loggingDescription: String { "#\(number)" }
}

/// The error a failing stress action completes with.
struct StressFailure: Error {}

/// The serial queues of the stress actions, shared by every test like the other fixture queues.
enum StressLanes {
    private static let queues = (0..<4).map { DispatchQueue(label: "actuate.tests.stress.\($0)") }

    static func queue(_ index: Int) -> DispatchQueue { queues[index] }
}

/// Counts, for one test, the bodies that run on each lane at the same moment: two at once would break the serial
/// guarantee.
final class StressMonitor: Sendable {
    private final class Lane: Sendable {
        /// Synchronous bodies running now.
        let running = Atomic<Int>(0)
        /// Async bodies running now (they may suspend, and a synchronous body may run while they do).
        let runningAsync = Atomic<Int>(0)
    }

    private let lanes = (0..<4).map { _ in Lane() }
    private let overlapCount = Atomic<Int>(0)

    /// Marks a synchronous body as running on lane `index` until `body` returns.
    func run<T>(on index: Int, _ body: () -> T) -> T {
        if lanes[index].running.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue != 1 {
            overlapCount.add(1, ordering: .relaxed)
        }
        defer { lanes[index].running.subtract(1, ordering: .sequentiallyConsistent) }
        return body()
    }

    /// Marks an async body as running on lane `index` until `body` returns.
    func runAsync<T>(on index: Int, _ body: () async -> T) async -> T {
        if lanes[index].runningAsync.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue != 1 {
            overlapCount.add(1, ordering: .relaxed)
        }
        defer { lanes[index].runningAsync.subtract(1, ordering: .sequentiallyConsistent) }
        return await body()
    }

    /// How many times two bodies of the same kind ran on one lane at the same time: always 0.
    var overlaps: Int { overlapCount.load(ordering: .relaxed) }
}

protocol StressLane: Sendable {
    associatedtype Next: StressLane
    static var index: Int { get }
}

enum Lane0: StressLane {
    typealias Next = Lane1
    static var index: Int { 0 }
}

enum Lane1: StressLane {
    typealias Next = Lane2
    static var index: Int { 1 }
}

enum Lane2: StressLane {
    typealias Next = Lane3
    static var index: Int { 2 }
}

enum Lane3: StressLane {
    typealias Next = Lane0
    static var index: Int { 3 }
}

/// Completes synchronously: a failure for every seventh number, a success otherwise.
final class StressSyncAction<Lane: StressLane>: Action {
    typealias InputType = StressInput
    static var name: String { "Stress Sync \(Lane.index)" }
    static var queue: DispatchQueue { StressLanes.queue(Lane.index) }
    static var analyticsID: String? { "stress-sync" }

    static func perform(
        context: ActionContext<StressInput>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        context.input.monitor.run(on: Lane.index) {
            completion.completedSync(context.input.fails ? .failure(error: StressFailure()) : .success)
        }
    }
}

/// Promises to complete, and completes from a global queue.
final class StressDeferredAction<Lane: StressLane>: Action {
    typealias InputType = StressInput
    static var name: String { "Stress Deferred \(Lane.index)" }
    static var queue: DispatchQueue { StressLanes.queue(Lane.index) }

    static func perform(
        context: ActionContext<StressInput>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        context.input.monitor.run(on: Lane.index) {
            let status = completion.willCompleteAsync()
            DispatchQueue.global().async { status.completed(.success) }
            return status
        }
    }
}

/// An async body that suspends once.
final class StressAsyncAction<Lane: StressLane>: AsyncAction {
    typealias InputType = StressInput
    static var name: String { "Stress Async \(Lane.index)" }
    static var queue: DispatchQueue { StressLanes.queue(Lane.index) }

    static func perform(context: ActionContext<StressInput>, presenter: Void) async throws -> ActionPerformOutcome {
        await context.input.monitor.runAsync(on: Lane.index) {
            await Task.yield()
            return .success
        }
    }
}

/// Performs a synchronous action on the next lane, in the same session, and completes when it has.
final class StressNestingAction<Lane: StressLane>: Action {
    typealias InputType = StressInput
    static var name: String { "Stress Nesting \(Lane.index)" }
    static var queue: DispatchQueue { StressLanes.queue(Lane.index) }

    static func perform(
        context: ActionContext<StressInput>,
        presenter: Void,
        completion: Completion
    )
        -> Completion.Status
    {
        context.input.monitor.run(on: Lane.index) {
            let status = completion.willCompleteAsync()
            let input = StressInput(
                session: context.input.session,
                monitor: context.input.monitor,
                number: context.input.number + 1
            )
            context.input.session.perform(StressFeature.action(StressSyncAction<Lane.Next>.self), input: input) {
                status.completed($0.isSuccess ? .success : .failure(error: StressFailure()))
            }
            return status
        }
    }
}

final class StressFeature: Feature {
    static func prepare(actions: FeatureActionsBuilder) {
        declare(Lane0.self, in: actions)
        declare(Lane1.self, in: actions)
        declare(Lane2.self, in: actions)
        declare(Lane3.self, in: actions)
    }

    private static func declare<L: StressLane>(_ lane: L.Type, in actions: FeatureActionsBuilder) {
        actions.declare(action(StressSyncAction<L>.self))
        actions.declare(action(StressDeferredAction<L>.self))
        actions.declare(action(StressAsyncAction<L>.self))
        actions.declare(action(StressNestingAction<L>.self))
    }
}

/// Performs the request with number `n` as one of the sixteen (kind, lane) pairs: kind `n % 4`, lane `(n / 4) % 4`.
enum StressPerformer {
    typealias Perform = @Sendable (StressInput, @escaping @Sendable (_ succeeded: Bool) -> Void) -> Void

    /// The sixteen ways to perform, indexed by `n % 16`.
    static let all: [Perform] =
        performers(Lane0.self) + performers(Lane1.self) + performers(Lane2.self)
        + performers(Lane3.self)

    /// Whether request `n` performs a nested action.
    static func isNesting(_ number: Int) -> Bool { number % 4 == 3 }

    /// Whether request `n`, or the nested action it performs, is a synchronous action with an analytics ID.
    static func isTracked(_ number: Int) -> Bool { number % 4 == 0 || isNesting(number) }

    /// How many of requests `0..<total` fail: synchronous ones with a failing number, and nested ones whose
    /// inner request (number + 1) fails.
    static func expectedFailures(total: Int) -> Int {
        (0..<total).filter { number in
            (number % 4 == 0 && number % 7 == 0) || (isNesting(number) && (number + 1) % 7 == 0)
        }.count
    }

    private static func performers<L: StressLane>(_ lane: L.Type) -> [Perform] {
        let sync = StressFeature.action(StressSyncAction<L>.self)
        let deferred = StressFeature.action(StressDeferredAction<L>.self)
        let async = StressFeature.action(StressAsyncAction<L>.self)
        let nesting = StressFeature.action(StressNestingAction<L>.self)
        return [
            { input, done in input.session.perform(sync, input: input) { done($0.isSuccess) } },
            { input, done in input.session.perform(deferred, input: input) { done($0.isSuccess) } },
            { input, done in input.session.perform(async, input: input) { done($0.isSuccess) } },
            { input, done in input.session.perform(nesting, input: input) { done($0.isSuccess) } },
        ]
    }
}
