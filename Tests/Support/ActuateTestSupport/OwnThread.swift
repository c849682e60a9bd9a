import Foundation

/// Runs `body` on a thread of its own and returns its result, so that its blocking work and waits never hold one
/// of the cooperative pool's threads, which async hops and other tests need.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}
