import ActuateTestSupport
import Dispatch
import Foundation

/// Thrown when a bounded wait runs out: what the test waited for hangs.
struct BoundedWaitExpired: Error, CustomStringConvertible {
    /// What did not finish in time.
    var waitedFor: String

    var description: String { "\(waitedFor) did not finish within 60 seconds (a hang)" }
}

/// Runs `body`, failing with ``BoundedWaitExpired`` if it has not returned within a minute of real time, so that
/// a hang shows up as a test failure rather than a stuck test.
///
/// `body` runs in a task on ``OwnQueueExecutor``, so the minute is not spent waiting for a cooperative pool that
/// other suites of a parallel run hold.
func withBoundedWait(_ waitedFor: String, _ body: @escaping @Sendable () async -> Void) async throws {
    let done = DispatchSemaphore(value: 0)
    Task(executorPreference: boundedWaitExecutor) {
        await body()
        done.signal()
    }
    let finished = await onOwnThread { done.wait(timeout: .now() + .seconds(60)) == .success }
    guard finished else { throw BoundedWaitExpired(waitedFor: waitedFor) }
}

/// The executor of the tasks ``withBoundedWait(_:_:)`` starts.
private let boundedWaitExecutor = OwnQueueExecutor(label: "actuate.tests.bounded-wait")
