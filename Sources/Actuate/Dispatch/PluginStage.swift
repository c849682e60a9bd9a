/// When a plugin hears about an action, relative to the other plugins of its dispatcher.
///
/// A dispatcher tells its plugins in stage order, and within a stage in the order they were added, whatever
/// order an app adds them in; ``ActionDispatchPlugin/actionWillBegin(_:)`` and
/// ``ActionDispatchPlugin/actionDidComplete(_:outcome:)`` go through them in the same order. So a plugin that
/// prepares what others record (redaction, enrichment) is guaranteed to run before the plugins that record.
///
/// The stages of the shipped plugins:
///
/// | plugin | stage |
/// |---|---|
/// | `Timeline`, `ActionStacksPlugin`, `AnalyticsPlugin`, `ReportingPlugin` | ``observation`` |
/// | `ActivitiesPlugin`, the stream of ``ActionDispatcher/events(bufferingPolicy:)`` | ``after`` |
///
/// None of them uses ``before`` or ``enrichment``: those are for the app's own plugins, and the only stages that
/// may attach values to a request for the later stages to read (``ActionRequest/attach(_:for:)``).
public enum PluginStage: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// First: plugins that must see every action before anything else does, such as validation or tracing.
    case before = 0
    /// Plugins that prepare what the recorders record, such as redaction or enrichment, and attach it to the
    /// request with ``ActionRequest/attach(_:for:)``.
    case enrichment = 1
    /// Plugins that record: the timeline, action stacks, analytics, reporting. The default.
    case observation = 2
    /// Last: plugins that act on what was recorded, such as publishing activities or streaming events.
    case after = 3

    public static func < (lhs: PluginStage, rhs: PluginStage) -> Bool { lhs.rawValue < rhs.rawValue }
}
