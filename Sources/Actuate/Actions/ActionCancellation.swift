import Synchronization

/// The cancellation state shared by one performance of an action and the task that awaits it.
///
/// Allocated only for `async` performs; a perform that cannot be cancelled has none (its context holds nil).
@usableFromInline
final class ActionCancellation: Sendable {

    private struct State {
        var isCancelled = false
        /// The body task to cancel, held without an array or a closure: a perform starts one.
        var task: Task<Void, Never>?
        /// Any further tasks, should the same context start more than one body.
        var moreTasks: [Task<Void, Never>] = []
    }

    private let state = Mutex(State())

    @usableFromInline
    init() {}

    var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    /// Marks the perform cancelled and cancels the registered tasks once, outside the lock.
    @usableFromInline
    func cancel() {
        let (task, moreTasks) = state.withLock { state -> (Task<Void, Never>?, [Task<Void, Never>]) in
            guard !state.isCancelled else { return (nil, []) }
            state.isCancelled = true
            defer {
                state.task = nil
                state.moreTasks = []
            }
            return (state.task, state.moreTasks)
        }
        task?.cancel()
        for task in moreTasks { task.cancel() }
    }

    /// Cancels `task` when the perform is cancelled, or at once if it already is.
    @usableFromInline
    func onCancel(cancelling task: Task<Void, Never>) {
        let runNow = state.withLock { state -> Bool in
            if state.isCancelled { return true }
            if state.task == nil {
                state.task = task
            } else {
                state.moreTasks.append(task)
            }
            return false
        }
        if runNow { task.cancel() }
    }
}
