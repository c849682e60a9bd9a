import ActuateCore

/// Offers intents to the system, so that it can suggest them and the user can add them as shortcuts.
///
/// ``IntentDonationPlugin`` calls ``donate(_:)`` on the thread that completed the action. On Apple platforms
/// `InteractionIntentDonor` donates `INInteraction`s; tests use `RecordingIntentDonor` from ActuateTesting.
public protocol IntentDonor: Sendable {
    /// Donates one intent.
    ///
    /// - Parameter intent: The intent of an action the user just performed.
    func donate(_ intent: IntentDescriptor)
}
