import ActuateReporting

/// The event types that campaign contexts record, beside the content statuses (`executed` for an impression,
/// `target` for a clickthrough, `close` for a dismissal) and `purchase`.
public enum CampaignEventType {
    /// An item was viewed.
    public static let viewItem = ReportEventType("view_item")
    /// An item's details were viewed.
    public static let viewItemDetail = ReportEventType("view_item_detail")
    /// A category was viewed.
    public static let viewCategory = ReportEventType("view_category")
    /// A tag was viewed.
    public static let viewTag = ReportEventType("view_tag")
    /// A view ended or paused at a screen's disappearance; carries the seconds it was viewed while active.
    public static let viewTime = ReportEventType("view_time")
    /// A line item was added to the cart.
    public static let addToCart = ReportEventType("add_to_cart")
    /// A line item was removed from the cart.
    public static let removeFromCart = ReportEventType("remove_from_cart")
    /// The whole cart was viewed, replacing the mirrored cart.
    public static let viewCart = ReportEventType("view_cart")
    /// An item was reviewed.
    public static let review = ReportEventType("review")
    /// An item was shared.
    public static let share = ReportEventType("share")
    /// An item was commented on.
    public static let comment = ReportEventType("comment")
    /// An item was marked as a favourite.
    public static let favorite = ReportEventType("favorite")
    /// An app-defined action, named in the `name` property.
    public static let userAction = ReportEventType("user_action")
    /// A control-group campaign would have been shown; it was not, so it is not an `executed` impression.
    public static let controlImpression = ReportEventType("control_impression")
    /// A tracking call was refused, for example a purchase with no line items and an empty cart.
    public static let trackingError = ReportEventType("tracking_error")
    /// A campaign source failed to answer.
    public static let campaignSourceError = ReportEventType("campaign_source_error")
    /// The file that keeps the mirrored cart and the purchased order ids across launches could not be read back
    /// (it was set aside and tracking started empty) or written; the `message` property says which and why.
    public static let storageError = ReportEventType("campaign_storage_error")
}

/// The property names of campaign and tracking events.
public enum CampaignEventKey {
    /// The name of the context the event happened in (`global` or a screen's name).
    public static let context = "context"
    /// A campaign's target.
    public static let target = "target"
    /// Whether the campaign's user is in its control group.
    public static let controlGroup = "controlGroup"
    /// A campaign's experience id.
    public static let experienceId = "experienceId"
    /// A campaign's experience name.
    public static let experienceName = "experienceName"
    /// A campaign's message id.
    public static let messageId = "messageId"
    /// The item an event is about, as ``Item/jsonValue``.
    public static let item = "item"
    /// The optional action name of a view, or the name of a ``CampaignEventType/userAction``.
    public static let actionName = "actionName"
    /// The name of a user action.
    public static let name = "name"
    /// The event type of the view a ``CampaignEventType/viewTime`` event measured.
    public static let viewType = "viewType"
    /// Seconds of view time.
    public static let seconds = "seconds"
    /// A line item.
    public static let lineItem = "lineItem"
    /// The mirrored cart's line items after the event.
    public static let cart = "cart"
    /// An order.
    public static let order = "order"
    /// Review details.
    public static let review = "review"
    /// The notification action a clickthrough came from.
    public static let actionIdentifier = "actionIdentifier"
    /// How a clickthrough arrived: `notification` for one from a notification.
    public static let via = "via"
    /// User attributes set since the previous event.
    public static let userAttributes = "userAttributes"
    /// Account attributes set since the previous event.
    public static let accountAttributes = "accountAttributes"
    /// What went wrong, on error events.
    public static let message = ReportEventKey.message
    /// The call that was refused, on ``CampaignEventType/trackingError`` events.
    public static let call = "call"
}
