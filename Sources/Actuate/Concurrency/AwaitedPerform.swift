import Synchronization

/// An `await`ed perform of an ``AsyncAction``, which runs the action's body in the awaiting task itself.
///
/// Performed with a callback, an async body runs in a task of its own that the dispatcher starts on the action's
/// queue. An awaiting caller has a task already: it moves onto the queue's executor, dispatches there, so that the
/// dispatch runs inline, and takes the body over when ``AsyncBodyRunner`` offers it. That saves the body's task, a
/// queue hop and the continuation that would wait for it, and keeps every rule of a task-run body: the body starts
/// and resumes on the queue's executor, behind the queue's gate, inside the caller's nesting, and cancelling the
/// awaiting task cancels it.
///
/// Only the request this perform dispatched takes it over, recognised by its cancellation, which is made for the
/// perform and passed to nothing else. Whenever the body is not offered (the dispatch had to hop, or the action
/// completed without a body task) the outcome arrives through ``finish(_:)`` as from any completion.
@usableFromInline
final class AwaitedPerform: Sendable {
    private struct State {
        var body: (@Sendable () async -> Void)?
        var bodyOffered = false
        var outcome: ActionPerformOutcome?
        var continuation: CheckedContinuation<ActionPerformOutcome, Never>?
    }

    /// The awaited perform whose dispatch is running in the current task.
    @TaskLocal static var current: AwaitedPerform?

    /// The cancellation made for this perform: the mark of its own request.
    @usableFromInline let cancellation: ActionCancellation
    private let state = Mutex(State())

    @usableFromInline
    init(cancellation: ActionCancellation) {
        self.cancellation = cancellation
    }

    /// Dispatches inside this perform, so that a body the dispatch starts in this task is offered to it.
    @usableFromInline
    @discardableResult
    func dispatching<T>(_ dispatch: () -> T) -> T {
        Self.$current.withValue(self, operation: dispatch)
    }

    /// The awaited perform in the current task that would run the body of the request with `cancellation`, if
    /// that request is its own and no body was offered to it yet.
    @usableFromInline
    static func taking(requestWith cancellation: ActionCancellation?) -> AwaitedPerform? {
        guard let cancellation, let current, current.cancellation === cancellation else { return nil }
        return current.state.withLock { state in
            guard !state.bodyOffered else { return nil }
            state.bodyOffered = true
            return current
        }
    }

    /// Hands the body to the awaiting task, which runs it in ``outcome()``.
    @usableFromInline
    func offer(_ body: @escaping @Sendable () async -> Void) {
        state.withLock { $0.body = body }
    }

    /// Records how the request ended, resuming the awaiting task if it is waiting.
    @usableFromInline
    func finish(_ outcome: ActionPerformOutcome) {
        let continuation = state.withLock { state -> CheckedContinuation<ActionPerformOutcome, Never>? in
            guard let continuation = state.continuation else {
                state.outcome = outcome
                return nil
            }
            state.continuation = nil
            return continuation
        }
        continuation?.resume(returning: outcome)
    }

    /// Runs the offered body, if any, then returns the request's outcome, waiting for it if it has not arrived.
    @usableFromInline
    func outcome() async -> ActionPerformOutcome {
        if let body = state.withLock({ state in state.body.take() }) {
            await body()
        }
        if let outcome = state.withLock({ $0.outcome }) { return outcome }
        return await withCheckedContinuation { continuation in
            let outcome = state.withLock { state -> ActionPerformOutcome? in
                if let outcome = state.outcome { return outcome }
                state.continuation = continuation
                return nil
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
    }
}
