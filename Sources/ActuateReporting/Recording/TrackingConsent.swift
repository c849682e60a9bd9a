/// Whether the user allows tracking, which gates what the ``Reporter`` stores.
///
/// The rules, which ``Reporter`` implements exactly:
/// - Consent is ``granted`` by default, and consent supplied by a server counts as granted when the server
///   sends none (see `init(serverValue:)`).
/// - While ``denied``, events are not stored; ``Reporter/suppressedEventCount`` counts them. Session start and
///   end events are gated the same way.
/// - The force-tracking path, `record(…, forceTracking: true)`, stores an event whatever the consent, with the
///   property `tracking_forced = true`. Use it only where the user's own action asks for tracking, such as a
///   link carrying a force-track parameter.
/// - Withdrawing consent (``granted`` to ``denied``) removes from the store every pending, not yet uploaded
///   event that was recorded under consent, because it may no longer be sent; forced events stay.
///   A batch that delivery had already read from the store and is sending at that moment is not recalled.
/// - Granting consent again makes new events stored normally. Events suppressed while denied are not
///   recovered.
/// - Session rules keep running while consent is denied, so session ids and session counts stay right; only
///   storing the boundary events is gated.
public enum TrackingConsent: String, Sendable, Hashable, Codable, CaseIterable {
    /// Events are recorded.
    case granted
    /// Only force-tracked events are recorded.
    case denied

    /// Reads consent as a server supplies it, where an absent value counts as granted.
    /// - Parameter serverValue: The server's `has_tracking_consent`, or nil when it sent none.
    package init(serverValue: Bool?) {
        self = serverValue == false ? .denied : .granted
    }
}
