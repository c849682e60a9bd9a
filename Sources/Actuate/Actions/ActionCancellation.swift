import Synchronization

/// The cancellation state shared by one performance of an action and the task that awaits it.
///
/// Allocated only for `async` performs; a perform that cannot be cancelled has none (its context holds nil).
///
/// When the awaiting task runs an ``AsyncAction``'s body itself (see
/// `ActionSession.performAwaitingBody(_:input:presenter:userInitiated:source:queue:)`), the body is handed to it
/// here instead of starting in a task of its own.
@usableFromInline
final class ActionCancellation: Sendable {
    /// An async body that the awaiting task runs itself.
    @usableFromInline typealias HandedOverBody = nonisolated(nonsending) @Sendable () async -> Void

    private enum HandOver {
        /// Bodies start in tasks of their own.
        case notWanted
        /// The awaiting task runs the first body started with this cancellation.
        case wanted
        /// The body the awaiting task is to run.
        case handed(HandedOverBody)
    }

    private struct State {
        var isCancelled = false
        /// The body task to cancel, held without an array or a closure: a perform starts one.
        var task: Task<Void, Never>?
        /// Any further tasks, should the same context start more than one body.
        var moreTasks: [Task<Void, Never>] = []
        var handOver = HandOver.notWanted
    }

    private let state: Mutex<State>

    /// A cancellation whose first async body is handed to the awaiting task when `awaitingBody` is true.
    @usableFromInline
    init(awaitingBody: Bool = false) {
        state = Mutex(State(handOver: awaitingBody ? .wanted : .notWanted))
    }

    /// Hands `body` to the awaiting task, when it waits for one and has not taken one; false otherwise, and the
    /// caller starts the body in a task of its own.
    @usableFromInline
    func handOver(_ body: @escaping HandedOverBody) -> Bool {
        state.withLock { state in
            guard case .wanted = state.handOver else { return false }
            state.handOver = .handed(body)
            return true
        }
    }

    /// The body handed over, if any; after this call no body is handed over.
    @usableFromInline
    func takeHandedOverBody() -> HandedOverBody? {
        state.withLock { state in
            defer { state.handOver = .notWanted }
            guard case .handed(let body) = state.handOver else { return nil }
            return body
        }
    }

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
