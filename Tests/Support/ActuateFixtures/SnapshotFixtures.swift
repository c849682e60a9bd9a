import Dispatch
import Synchronization

@testable import ActuateCore

/// Two queues of their own, so that their markers, and so their timeline shards, differ; and one whose marker
/// only the queue-identity test reads. Static, as action queues are: a queue and its marker hold each other.
enum SnapshotQueues {
    static let left = DispatchQueue(label: "actuate.tests.snapshot.left")
    static let right = DispatchQueue(label: "actuate.tests.snapshot.right")
    static let identity = DispatchQueue(label: "actuate.tests.snapshot.identity")
}

/// Records, from inside its body, what the running-queue record says.
final class RunningQueueProbeAction: Action {
    static let seen = Mutex<[Bool]>([])
    static var queue: DispatchQueue { SnapshotQueues.left }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        let marker = DispatchQueueMarker.marker(for: SnapshotQueues.left)
        let other = DispatchQueueMarker.marker(for: SnapshotQueues.right)
        seen.withLock { $0 += [RunningQueue.isRunning(marker), RunningQueue.isRunning(other)] }
        return completion.completedSync(.success)
    }
}

final class LeftAction: Action {
    static var queue: DispatchQueue { SnapshotQueues.left }
    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class RightAction: Action {
    static var queue: DispatchQueue { SnapshotQueues.right }
    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

final class SnapshotFeature: Feature {
    static let probe = action(RunningQueueProbeAction.self)
    static let left = action(LeftAction.self)
    static let right = action(RightAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(probe)
        actions.declare(left)
        actions.declare(right)
    }
}
