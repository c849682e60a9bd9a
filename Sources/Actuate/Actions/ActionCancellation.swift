import Synchronization

/// The cancellation state shared by one performance of an action and the task that awaits it.
///
/// Allocated only for `async` performs; synchronous performs share ``never``.
@usableFromInline
final class ActionCancellation: Sendable {
    /// The shared token of performs that cannot be cancelled.
    @usableFromInline static let never = ActionCancellation(cancellable: false)

    private struct State {
        var isCancelled = false
        var handlers: [@Sendable () -> Void] = []
    }

    private let cancellable: Bool
    private let state = Mutex(State())

    @usableFromInline
    init(cancellable: Bool = true) {
        self.cancellable = cancellable
    }

    var isCancelled: Bool {
        cancellable && state.withLock { $0.isCancelled }
    }

    /// Marks the perform cancelled and runs the registered handlers once, outside the lock.
    @usableFromInline
    func cancel() {
        guard cancellable else { return }
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
        guard cancellable else { return }
        let runNow = state.withLock { state -> Bool in
            if state.isCancelled { return true }
            state.handlers.append(handler)
            return false
        }
        if runNow { handler() }
    }
}
