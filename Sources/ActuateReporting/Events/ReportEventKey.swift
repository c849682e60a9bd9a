/// The property names that reporting events use, defined once so that recorders, uploaders and statistics agree.
///
/// In these names "action" means any piece of personalized content, whichever `ContentSource` it comes from.
/// Modules that record their own kinds of events add their keys in extensions of this type.
package enum ReportEventKey {
    /// The content's `ContentSource` wire name.
    package static let contentSource = "contentSource"
    /// The content's id within its source.
    package static let actionID = "actionId"
    /// The content's human-readable name.
    package static let actionName = "actionName"
    /// For `product`: the clicked product's id.
    package static let productID = "productId"
    /// For `purchase`: the ids of the products bought.
    package static let productIDs = "productIds"
    /// For `error`: what went wrong.
    package static let message = "message"
    /// For `session_end`: the session's length in seconds.
    package static let duration = "duration"
    /// For `session_end`: why the session ended (a `SessionEndReason` raw value).
    package static let reason = "reason"
    /// `true` on events recorded through the force-tracking path, which consent does not gate.
    package static let trackingForced = "tracking_forced"
}
