/// The name and type of one value that a plugin attaches to a request for the plugins after it to read.
///
/// A plugin in the ``PluginStage/before`` or ``PluginStage/enrichment`` stage attaches values in
/// ``ActionDispatchPlugin/actionWillBegin(_:)`` with ``ActionRequest/attach(_:for:)``; any plugin that runs
/// after it reads them with ``ActionRequest/value(for:)``, in both callbacks of the same request:
///
/// ```swift
/// extension RiskScoringPlugin {
///     static let riskScore = RequestValueKey<Int>("risk score")
/// }
///
/// // In RiskScoringPlugin's actionWillBegin (stage .enrichment):
/// request.attach(score, for: Self.riskScore)
/// // In any later plugin's actionWillBegin or actionDidComplete:
/// let score = request.value(for: RiskScoringPlugin.riskScore)
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
