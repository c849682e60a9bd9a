import Actuate
import Dispatch

/// The queue of the benchmark actions.
enum BenchmarkQueues {
    static let action = DispatchQueue(label: "actuate-bench.action")
}

/// The smallest action: no input, no presenter, completes synchronously.
final class TrivialSyncAction: Action {
    static var queue: DispatchQueue { BenchmarkQueues.action }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

/// The smallest async action.
final class TrivialAsyncBenchmarkAction: AsyncAction {
    static var queue: DispatchQueue { BenchmarkQueues.action }

    static func perform(context: ActionContext<NoInput>, presenter: Void) async throws -> ActionPerformOutcome {
        .success
    }
}

final class BenchmarkFeature: Feature {
    static let trivial = action(TrivialSyncAction.self)
    static let trivialAsync = action(TrivialAsyncBenchmarkAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(trivial)
        actions.declare(trivialAsync)
    }
}

/// Four queues and four actions, one per queue, so that threads can dispatch on separate queues at once.
enum ScalingLanes {
    static let queues = (0..<4).map { DispatchQueue(label: "actuate-bench.lane\($0)") }

    /// One closure per lane that performs that lane's action `count` times on `session`, from the lane's queue.
    static func loops(session: ActionSession, count: Int) -> [@Sendable () -> Void] {
        [
            { queues[0].sync { for _ in 0..<count { session.perform(ScalingFeature.lane0, completion: nil) } } },
            { queues[1].sync { for _ in 0..<count { session.perform(ScalingFeature.lane1, completion: nil) } } },
            { queues[2].sync { for _ in 0..<count { session.perform(ScalingFeature.lane2, completion: nil) } } },
            { queues[3].sync { for _ in 0..<count { session.perform(ScalingFeature.lane3, completion: nil) } } },
        ]
    }
}

final class Lane0Action: Action {
    static var queue: DispatchQueue { ScalingLanes.queues[0] }
    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class Lane1Action: Action {
    static var queue: DispatchQueue { ScalingLanes.queues[1] }
    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class Lane2Action: Action {
    static var queue: DispatchQueue { ScalingLanes.queues[2] }
    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class Lane3Action: Action {
    static var queue: DispatchQueue { ScalingLanes.queues[3] }
    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class ScalingFeature: Feature {
    static let lane0 = action(Lane0Action.self)
    static let lane1 = action(Lane1Action.self)
    static let lane2 = action(Lane2Action.self)
    static let lane3 = action(Lane3Action.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(lane0)
        actions.declare(lane1)
        actions.declare(lane2)
        actions.declare(lane3)
    }
}

/// A plugin that does nothing, to measure what each plugin costs the dispatcher.
struct NoOpPlugin: ActionDispatchPlugin {
    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {}
    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {}
}
