import Synchronization

/// The cancellation state shared by one performance of an action and the task that awaits it.
///
/// Allocated only for `async` performs; a perform that cannot be cancelled has none (its context holds nil).
@usableFromInline
final class ActionCancellation: Sendable {

    private struct State {
        var isCancelled = false
        var handlers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    @usableFromInline
    init() {}

    var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    /// Marks the perform cancelled and runs the registered handlers once, outside the lock.
    @usableFromInline
    func cancel() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.isCancelled else { return [] }
            state.isCancelled = true
            defer { state.handlers = [] }
            return state.handlers
        }
        for handler in handlers { handler() }
    }

    /// Runs `handler` when the perform is cancelled, or at once if it already is.
    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.isCancelled { return true }
            state.handlers.append(handler)
            return false
        }
        if runNow { handler() }
    }
}
