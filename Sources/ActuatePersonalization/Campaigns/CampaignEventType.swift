import ActuateReporting

/// The event types that campaign contexts record, beside the content statuses (`executed` for an impression,
/// `target` for a clickthrough, `close` for a dismissal) and `purchase`.
package enum CampaignEventType {
    /// An item was viewed.
    package static let viewItem = ReportEventType("view_item")
    /// An item's details were viewed.
    package static let viewItemDetail = ReportEventType("view_item_detail")
    /// A category was viewed.
    package static let viewCategory = ReportEventType("view_category")
    /// A tag was viewed.
    package static let viewTag = ReportEventType("view_tag")
    /// A view ended or paused at a screen's disappearance; carries the seconds it was viewed while active.
    package static let viewTime = ReportEventType("view_time")
    /// A line item was added to the cart.
    package static let addToCart = ReportEventType("add_to_cart")
    /// A line item was removed from the cart.
    package static let removeFromCart = ReportEventType("remove_from_cart")
    /// The whole cart was viewed, replacing the mirrored cart.
    package static let viewCart = ReportEventType("view_cart")
    /// An item was reviewed.
    package static let review = ReportEventType("review")
    /// An item was shared.
    package static let share = ReportEventType("share")
    /// An item was commented on.
    package static let comment = ReportEventType("comment")
    /// An item was marked as a favourite.
    package static let favorite = ReportEventType("favorite")
    /// An app-defined action, named in the `name` property.
    package static let userAction = ReportEventType("user_action")
    /// A control-group campaign would have been shown; it was not, so it is not an `executed` impression.
    package static let controlImpression = ReportEventType("control_impression")
    /// A tracking call was refused, for example a purchase with no line items and an empty cart.
    package static let trackingError = ReportEventType("tracking_error")
    /// A campaign source failed to answer.
    package static let campaignSourceError = ReportEventType("campaign_source_error")
    /// The file that keeps the mirrored cart and the purchased order ids across launches could not be read back
    /// (it was set aside and tracking started empty) or written; the `message` property says which and why.
    package static let storageError = ReportEventType("campaign_storage_error")
}

/// The property names of campaign and tracking events.
package enum CampaignEventKey {
    /// The name of the context the event happened in (`global` or a screen's name).
    package static let context = "context"
    /// A campaign's target.
    package static let target = "target"
    /// Whether the campaign's user is in its control group.
    package static let controlGroup = "controlGroup"
    /// A campaign's experience id.
    package static let experienceID = "experienceId"
    /// A campaign's experience name.
    package static let experienceName = "experienceName"
    /// A campaign's message id.
    package static let messageID = "messageId"
    /// The item an event is about, as ``Item/jsonValue``.
    package static let item = "item"
    /// The optional action name of a view, or the name of a ``CampaignEventType/userAction``.
    package static let actionName = "actionName"
    /// The name of a user action.
    package static let name = "name"
    /// The event type of the view a ``CampaignEventType/viewTime`` event measured.
    package static let viewType = "viewType"
    /// Seconds of view time.
    package static let seconds = "seconds"
    /// A line item.
    package static let lineItem = "lineItem"
    /// The mirrored cart's line items after the event.
    package static let cart = "cart"
    /// An order.
    package static let order = "order"
    /// Review details.
    package static let review = "review"
    /// The notification action a clickthrough came from.
    package static let actionIdentifier = "actionIdentifier"
    /// How a clickthrough arrived: `notification` for one from a notification.
    package static let via = "via"
    /// User attributes set since the previous event.
    package static let userAttributes = "userAttributes"
    /// Account attributes set since the previous event.
    package static let accountAttributes = "accountAttributes"
    /// What went wrong, on error events.
    package static let message = ReportEventKey.message
    /// The call that was refused, on ``CampaignEventType/trackingError`` events.
    package static let call = "call"
}
