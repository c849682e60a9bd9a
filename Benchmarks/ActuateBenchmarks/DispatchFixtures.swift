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
