import ActuateCore

/// A plugin that donates an intent each time an ``IntentAction`` succeeds, as Flint's intent shortcut donation
/// does.
///
/// Actions performed from an intent (source `ActionSource.intent`) are not donated again: the system already
/// knows of them.
///
/// ```swift
/// dispatcher.add(plugin: IntentDonationPlugin(donor: donor))
/// ```
public final class IntentDonationPlugin: ActionDispatchPlugin {
    /// Where intents go.
    let donor: any IntentDonor

    /// Creates the plugin.
    ///
    /// - Parameter donor: Where intents go.
    public init(donor: any IntentDonor) {
        self.donor = donor
    }

    /// Donates once the recorders have recorded the outcome: `PluginStage.after`.
    public var stage: PluginStage { .after }

    /// Whether the action is an ``IntentAction``, resolved once per action type, so that other actions cost
    /// one check rather than a dynamic cast.
    static let donatable = ActionTrait<Bool>("intentAction") { action in action is any IntentAction.Type ? true : nil }

    public func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {}

    public func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        guard request.header.hasTrait(Self.donatable), outcome.simplifiedOutcome.isSuccess,
            request.header.source != .intent,
            let action = A.self as? any IntentAction.Type
        else { return }
        donate(action, input: request.context.input, featurePath: request.feature.path)
    }

    private func donate<I: IntentAction>(_ action: I.Type, input: Any, featurePath: FeaturePath) {
        guard let input = input as? I.InputType else { return }
        donor.donate(IntentDescriptor(action, input: input, featurePath: featurePath))
    }
}
