import Foundation

/// Runs `body` on a thread of its own and returns its result or throws its error, so that its blocking work and
/// waits never hold one of the cooperative pool's threads, which async hops and other tests need.
///
/// Record expectations after it returns, in the test's own task: `#expect` inside `body` runs outside the test's
/// task and its task-local context.
public func onOwnThread<T: Sendable, Failure: Error>(
    _ body: @escaping @Sendable () throws(Failure) -> T
) async throws(Failure) -> T {
    let result: Result<T, Failure> = await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: Result(catching: body)) }.start()
    }
    return try result.get()
}
