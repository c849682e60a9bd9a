import ActuateCore

#if canImport(Intents)
import Intents

/// Donates intents to the system as `INInteraction`s, on Apple platforms.
///
/// A thin adapter: the app maps each portable ``IntentDescriptor`` to an instance of its own intent class
/// (generated from its intent definition file), filling its parameters from ``IntentDescriptor/parameters``;
/// a descriptor it maps to nil is not donated. The suggested invocation phrase is set where the platform has it.
///
/// <!-- readme: apple-only (Intents) -->
/// ```swift
/// let donor = InteractionIntentDonor { descriptor in
///     guard descriptor.identifier == IntentDescriptor.identifier(for: OrdersFeature.reorder) else { return nil }
///     let intent = ReorderIntent()
///     intent.orderID = descriptor.parameters[IntentDescriptor.singleValueParameterName]
///     return intent
/// }
/// dispatcher.add(plugin: IntentDonationPlugin(donor: donor))
/// ```
public final class InteractionIntentDonor: IntentDonor {
    private let makeIntent: @Sendable (IntentDescriptor) -> INIntent?
    private let onError: @Sendable (IntentDescriptor, any Error) -> Void

    /// Creates the donor.
    ///
    /// - Parameters:
    ///   - makeIntent: Builds the app's intent for a descriptor, or nil to donate nothing.
    ///   - onError: Hears about donations the system refused.
    public init(
        makeIntent: @escaping @Sendable (IntentDescriptor) -> INIntent?,
        onError: @escaping @Sendable (IntentDescriptor, any Error) -> Void = { _, _ in }
    ) {
        self.makeIntent = makeIntent
        self.onError = onError
    }

    public func donate(_ descriptor: IntentDescriptor) {
        guard let intent = makeIntent(descriptor) else { return }
        #if os(iOS) || os(watchOS) || os(visionOS)
        if let phrase = descriptor.suggestedInvocationPhrase { intent.suggestedInvocationPhrase = phrase }
        #endif
        let onError = onError
        INInteraction(intent: intent, response: nil).donate { error in
            if let error { onError(descriptor, error) }
        }
    }
}
#endif
