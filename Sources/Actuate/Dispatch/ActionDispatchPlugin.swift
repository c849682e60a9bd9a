/// A plugin that hears about every action a dispatcher performs.
///
/// The dispatcher calls ``actionWillBegin(_:)`` on every plugin before the body runs, and
/// ``actionDidComplete(_:outcome:)`` on the same plugins before the caller's completion runs, both in
/// ``stage`` order and, within a stage, in the order the plugins were added. A plugin added or removed
/// while an action is in flight sees both calls for it, or neither.
///
/// Plugins run on the dispatching thread: keep them fast and never block. Take dates and durations from
/// the request (``ActionRequest/date``, ``ActionRequest/duration``), which carries the
/// dispatcher's clock readings; a plugin never owns a clock.
public protocol ActionDispatchPlugin: Sendable {
    /// When the plugin runs relative to the others; ``PluginStage/observation`` by default.
    var stage: PluginStage { get }

    /// Called before an action's body runs, on the action's queue.
    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>)

    /// Called when an action has completed, before its caller hears about it.
    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome)
}

extension ActionDispatchPlugin {
    public var stage: PluginStage { .observation }
}
