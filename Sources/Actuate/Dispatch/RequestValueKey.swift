/// The name and type of one value that a plugin attaches to a request for the plugins after it to read.
///
/// A plugin in the ``PluginStage/before`` or ``PluginStage/enrichment`` stage attaches values in
/// ``ActionDispatchPlugin/actionWillBegin(_:)`` with ``ActionRequest/attach(_:for:)``; any plugin that runs
/// after it reads them with ``ActionRequest/value(for:)``, in both callbacks of the same request:
///
/// <!-- readme: repeats Sources/ActuatePlugins/ActuatePlugins.docc/Plugins.md -->
/// ```swift
/// struct RiskScoringPlugin: ActionDispatchPlugin {
///     static let riskScore = RequestValueKey<Int>("risk score")
///
///     var stage: PluginStage { .enrichment }
///
///     func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
///         request.attach(request.userInitiated ? 1 : 5, for: Self.riskScore)
///     }
///
///     func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {}
/// }
///
/// struct RiskAuditPlugin: ActionDispatchPlugin {  // observation, the default stage: runs after the scoring
///     func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
///         if let score = request.value(for: RiskScoringPlugin.riskScore), score > 3 {
///             print("risky: \(request.action.name)")
///         }
///     }
/// ```
///
/// Keys are compared by identity, not by name: make each key once, as a `static let`, and share that
/// instance between the plugin that attaches and the plugins that read.
public final class RequestValueKey<Value: Sendable>: Sendable {
    /// The name, for diagnostics.
    package let name: String

    /// Creates a key.
    ///
    /// - Parameter name: The name, for diagnostics.
    public init(_ name: String) {
        self.name = name
    }
}
