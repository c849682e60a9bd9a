/// The property names that reporting events use, defined once so that recorders, uploaders and statistics agree.
///
/// In these names "action" means any piece of personalized content, whichever ``ContentSource`` it comes from.
/// Modules that record their own kinds of events add their keys in extensions of this type.
public enum ReportEventKey {
    /// The content's ``ContentSource`` wire name.
    public static let contentSource = "contentSource"
    /// The content's id within its source.
    public static let actionID = "actionId"
    /// The content's human-readable name.
    public static let actionName = "actionName"
    /// For `product`: the clicked product's id.
    public static let productID = "productId"
    /// For `purchase`: the ids of the products bought.
    public static let productIDs = "productIds"
    /// For `error`: what went wrong.
    public static let message = "message"
    /// For `session_end`: the session's length in seconds.
    public static let duration = "duration"
    /// For `session_end`: why the session ended (a ``SessionEndReason`` raw value).
    public static let reason = "reason"
    /// `true` on events recorded through the force-tracking path, which consent does not gate.
    public static let trackingForced = "tracking_forced"
}
