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
func withBoundedWait(_ waitedFor: String, _ body: @escaping @Sendable () async -> Void) async throws {
    let done = DispatchSemaphore(value: 0)
    Task {
        await body()
        done.signal()
    }
    let finished = await onThreadOfItsOwn { done.wait(timeout: .now() + .seconds(60)) == .success }
    guard finished else { throw BoundedWaitExpired(waitedFor: waitedFor) }
}

/// Runs `body` on a thread of its own and returns its result, so that its blocking waits never hold one of the
/// cooperative pool's threads.
func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}
