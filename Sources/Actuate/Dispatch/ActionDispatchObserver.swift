/// A plugin that hears about every action a dispatcher performs.
///
/// The dispatcher calls ``actionWillBegin(_:)`` on every observer, in the order they were added, before the
/// body runs, and ``actionDidComplete(_:outcome:)`` on the same observers before the caller's completion
/// runs. An observer added or removed while an action is in flight sees both calls for it, or neither.
///
/// Observers run on the dispatching thread: keep them fast and never block.
public protocol ActionDispatchObserver: Sendable {
    /// Called before an action's body runs, on the action's queue.
    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>)

    /// Called when an action has completed, before its caller hears about it.
    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome)
}
