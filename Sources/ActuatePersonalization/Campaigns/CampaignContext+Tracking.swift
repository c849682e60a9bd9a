import ActuateReporting
import Foundation

/// Item views, commerce and engagement: each call records an event through the reporter and counts as user
/// activity. Item views, tracked actions and the item interactions of ``ItemInteraction`` (cart changes, recorded
/// purchases, reviews, shares, comments and favourites) also ask the campaign source for campaigns for this
/// context, with the event's properties; ``viewCart(_:)`` does not.
extension CampaignContext {
    // MARK: Views

    /// Tracks that an item is being viewed, or with nil that nothing is viewed any more.
    ///
    /// The item stays the one viewed until another view call. The time it is viewed while the context is active
    /// is recorded as a `CampaignEventType.viewTime` event when the view ends or the screen disappears.
    /// - Parameters:
    ///   - item: The item, or nil.
    ///   - actionName: A name to tell this view apart from others, such as `Quick View`.
    public func viewItem(_ item: (any Item)?, actionName: String? = nil) {
        view(item, as: CampaignEventType.viewItem, actionName: actionName)
    }

    /// Tracks that an item's details are being viewed (more images, a specifications tab), or with nil that
    /// nothing is viewed any more.
    /// - Parameters:
    ///   - item: The item, or nil.
    ///   - actionName: A name to tell this view apart from others.
    public func viewItemDetail(_ item: (any Item)?, actionName: String? = nil) {
        view(item, as: CampaignEventType.viewItemDetail, actionName: actionName)
    }

    /// Tracks that a category is being viewed, or with nil that nothing is viewed any more.
    /// - Parameters:
    ///   - category: The category, or nil.
    ///   - actionName: A name to tell this view apart from others.
    public func viewCategory(_ category: ItemCategory?, actionName: String? = nil) {
        view(category, as: CampaignEventType.viewCategory, actionName: actionName)
    }

    /// Tracks that a tag is being viewed, or with nil that nothing is viewed any more.
    /// - Parameters:
    ///   - tag: The tag, or nil.
    ///   - actionName: A name to tell this view apart from others.
    public func viewTag(_ tag: Tag?, actionName: String? = nil) {
        view(tag, as: CampaignEventType.viewTag, actionName: actionName)
    }

    private func view(_ item: (any Item)?, as viewType: ReportEventType, actionName: String?) {
        engine.userActivity()
        guard let item else {
            engine.step { delivery, now in delivery.setView(nil, contextID: id, now: now) }
            return
        }
        let actionName = actionName.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        let view = ViewState(viewType: viewType, item: item.jsonValue, actionName: actionName)
        engine.step { delivery, now in delivery.setView(view, contextID: id, now: now) }
        var properties: [String: JSONValue] = [CampaignEventKey.item: item.jsonValue]
        if let actionName { properties[CampaignEventKey.actionName] = .string(actionName) }
        engine.record(viewType, properties, contextName: name)
        engine.request(
            .itemView(type: item.itemType, id: item.id),
            properties: properties,
            contextID: id,
            contextName: name
        )
    }

    // MARK: Cart and orders

    /// Tracks that a line item was added to the cart, adds it to the mirrored cart (to the line of the same
    /// product when there is one), and asks the campaign source for the campaigns it earns.
    /// - Parameter lineItem: The line added.
    public func addToCart(_ lineItem: LineItem) {
        changeCart(lineItem, as: CampaignEventType.addToCart, interaction: .addToCart) { $0.add(lineItem) }
    }

    /// Tracks that a line item was removed from the cart, takes its quantity off the mirrored cart, and asks the
    /// campaign source for the campaigns it earns.
    /// - Parameter lineItem: The line removed.
    public func removeFromCart(_ lineItem: LineItem) {
        changeCart(lineItem, as: CampaignEventType.removeFromCart, interaction: .removeFromCart) { $0.remove(lineItem) }
    }

    /// Changes the mirrored cart by one line and records the line with the cart as it is after the change.
    private func changeCart(
        _ lineItem: LineItem,
        as type: ReportEventType,
        interaction: ItemInteraction,
        _ change: (inout TrackingState) -> Void
    ) {
        engine.userActivity()
        let cart = engine.tracking { tracking in
            change(&tracking)
            return tracking.cart
        }
        let properties = [CampaignEventKey.lineItem: lineItem.jsonValue, CampaignEventKey.cart: Self.json(cart)]
        engine.record(type, properties, contextName: name)
        let trigger = CampaignTrigger.interaction(interaction, type: .product, ids: [lineItem.product.id])
        engine.request(trigger, properties: properties, contextID: id, contextName: name)
    }

    /// Tracks the whole cart, which replaces the mirrored cart.
    /// - Parameter order: The cart, as an open order (usually without an order id).
    public func viewCart(_ order: Order) {
        engine.userActivity()
        engine.tracking { $0.replaceCart(with: order) }
        engine.record(
            CampaignEventType.viewCart,
            [CampaignEventKey.order: order.jsonValue, CampaignEventKey.cart: Self.json(order.lineItems)],
            contextName: name
        )
    }

    /// Tracks a purchase as a `purchase` event, empties the mirrored cart, and asks the campaign source for the
    /// campaigns the purchase earns.
    ///
    /// An order without line items is the cart's lines. An order whose id was purchased before is ignored: no
    /// `purchase` event and no campaign request, but an "Ignore Purchase" action in the timeline with its reason
    /// (a `purchase_ignored` event with `orderId` and `reason` when reporting is installed). An order with no line
    /// items while the cart is empty is accepted when it is made (its lines may come from the cart) and recorded
    /// as a `CampaignEventType.trackingError` when it is purchased.
    /// - Parameter order: The order.
    public func purchase(_ order: Order) {
        engine.userActivity()
        switch engine.tracking({ $0.purchase(order) }) {
        case .success(let settled):
            var properties = EventProperties.purchase(productIDs: settled.productIDs)
            properties[CampaignEventKey.order] = settled.jsonValue
            engine.record(.purchase, properties, contextName: name)
            let trigger = CampaignTrigger.interaction(.purchase, type: .product, ids: settled.productIDs)
            engine.request(
                trigger,
                properties: [CampaignEventKey.order: settled.jsonValue],
                contextID: id,
                contextName: name
            )
        case .failure(.repeatedOrderID(let orderID)):
            engine.recordIgnoredPurchase(orderID: orderID, contextName: name)
        case .failure(.nothingBought):
            engine.recordTrackingError(
                call: "purchase",
                message: "the order has no line items and the cart is empty",
                contextName: name
            )
        }
    }

    // MARK: Engagement

    /// Tracks that an item was reviewed, and asks the campaign source for the campaigns it earns.
    /// - Parameters:
    ///   - item: The item.
    ///   - details: The review's rating, text and verification.
    public func review(_ item: any Item, details: Review? = nil) {
        var properties: [String: JSONValue] = [CampaignEventKey.item: item.jsonValue]
        if let details { properties[CampaignEventKey.review] = details.jsonValue }
        engage(CampaignEventType.review, .review, item, properties)
    }

    /// Tracks that an item was shared, for example by email or on a social network, and asks the campaign source
    /// for the campaigns it earns.
    /// - Parameter item: The item.
    public func share(_ item: any Item) {
        engage(CampaignEventType.share, .share, item, [CampaignEventKey.item: item.jsonValue])
    }

    /// Tracks that an item was commented on, and asks the campaign source for the campaigns it earns.
    /// - Parameter item: The item.
    public func comment(_ item: any Item) {
        engage(CampaignEventType.comment, .comment, item, [CampaignEventKey.item: item.jsonValue])
    }

    /// Tracks that the user marked an item as a favourite, and asks the campaign source for the campaigns it
    /// earns.
    /// - Parameter item: The item.
    public func favorite(_ item: any Item) {
        engage(CampaignEventType.favorite, .favorite, item, [CampaignEventKey.item: item.jsonValue])
    }

    /// Tracks an app-defined action and asks the campaign source for the campaigns it earns. An empty name is
    /// recorded as a `CampaignEventType.trackingError`.
    /// - Parameter action: A short name for the action, such as `Add to Wishlist`.
    public func trackAction(_ action: String) {
        engine.userActivity()
        let trimmed = action.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            engine.recordTrackingError(call: "trackAction", message: "the action name is empty", contextName: name)
            return
        }
        let properties: [String: JSONValue] = [CampaignEventKey.name: .string(trimmed)]
        engine.record(CampaignEventType.userAction, properties, contextName: name)
        engine.request(.action(trimmed), properties: properties, contextID: id, contextName: name)
    }

    private func engage(
        _ type: ReportEventType,
        _ interaction: ItemInteraction,
        _ item: any Item,
        _ properties: [String: JSONValue]
    ) {
        engine.userActivity()
        engine.record(type, properties, contextName: name)
        let trigger = CampaignTrigger.interaction(interaction, type: item.itemType, ids: [item.id])
        engine.request(trigger, properties: properties, contextID: id, contextName: name)
    }

    static func json(_ lines: [LineItem]) -> JSONValue {
        .array(lines.map(\.jsonValue))
    }
}
