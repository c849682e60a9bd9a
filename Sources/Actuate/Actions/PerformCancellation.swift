/// A handle that cancels one perform, for the test kit: what cancelling the task that awaits a perform does,
/// for a perform started with a completion callback.
package final class PerformCancellation: Sendable {
    let state = ActionCancellation()

    package init() {}

    /// Cancels the perform: an ``AsyncAction``'s body is cancelled, or does not start; a callback body sees
    /// ``ActionContext/isCancelled``.
    package func cancel() {
        state.cancel()
    }

    /// Whether ``cancel()`` was called.
    package var isCancelled: Bool { state.isCancelled }
}
