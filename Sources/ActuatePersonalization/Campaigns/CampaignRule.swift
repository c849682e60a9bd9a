/// A campaign in a rules file, with the event that earns it and the share of users held back as its control
/// group.
package struct CampaignRule: Sendable, Hashable {
    /// The campaign offered when the trigger matches.
    package var campaign: Campaign
    /// The event that earns it.
    package var trigger: CampaignTriggerRule
    /// The share of users, 0 to 100, who get the campaign marked ``Campaign/isControlGroup``: the same users on
    /// every launch and device, chosen apart for each campaign id (see ``CampaignRules/campaigns(for:)``).
    /// 0, the default, holds no one back; a campaign whose own ``Campaign/isControlGroup`` is true is control
    /// for everyone.
    package var controlGroupPercent: Double

    /// Creates a rule.
    /// - Parameters:
    ///   - campaign: The campaign offered when the trigger matches.
    ///   - trigger: The event that earns it.
    ///   - controlGroupPercent: The share of users, 0 to 100, in the campaign's control group; 0 by default.
    package init(campaign: Campaign, trigger: CampaignTriggerRule, controlGroupPercent: Double = 0) {
        self.campaign = campaign
        self.trigger = trigger
        self.controlGroupPercent = controlGroupPercent
    }

    /// The campaign as offered to one visitor: marked ``Campaign/isControlGroup`` when the visitor falls in the
    /// control group.
    /// - Parameter visitorID: The visitor's stable anonymous id, or nil when the request named none (then only
    ///   a campaign that is control for everyone is control).
    /// - Returns: The campaign for that visitor.
    package func campaign(forVisitor visitorID: String?) -> Campaign {
        guard !campaign.isControlGroup, let visitorID else { return campaign }
        var offered = campaign
        offered.isControlGroup = ControlGroup.contains(
            visitorID: visitorID,
            campaignID: campaign.campaignID,
            percent: controlGroupPercent
        )
        return offered
    }
}

/// Which tracked events earn a campaign: an action by name, a view of an item, or another interaction with items
/// (``ItemInteraction``), optionally of one item type or one id, optionally only in one context.
///
/// Its JSON form is an object with exactly one of `action`, `itemView`, `addToCart`, `removeFromCart`,
/// `purchase`, `review`, `share`, `comment` and `favorite`, and optionally `context`. Every key but `action` takes
/// an item filter, `{}` for any item or with `type` and `id` to narrow it; cart changes and purchases are about
/// products, so their filter takes no type other than `Product`, and a purchase matches when any product of the
/// order does:
///
/// ```json
/// { "action": "Add to Cart" }
/// { "itemView": { "type": "Product", "id": "sku-1" }, "context": "Product" }
/// { "addToCart": { "id": "sku-1" } }
/// { "purchase": {} }
/// { "review": { "type": "Article" }, "context": "Blog" }
/// ```
package struct CampaignTriggerRule: Sendable, Hashable, CustomStringConvertible {
    /// The kind of event a rule waits for.
    package enum Event: Sendable, Hashable {
        /// A tracked action with this name.
        case action(String)
        /// A view of an item; nil type or id matches any.
        case itemView(type: ItemType?, id: String?)
        /// An interaction with items; nil type or id matches any, and an id matches when any item of the
        /// interaction has it.
        case interaction(ItemInteraction, type: ItemType?, id: String?)
    }

    /// The event.
    package var event: Event
    /// The context it must happen in, or nil for any.
    package var contextName: String?

    /// Creates a trigger rule.
    /// - Parameters:
    ///   - event: The event.
    ///   - contextName: The context it must happen in; nil for any.
    package init(event: Event, contextName: String? = nil) {
        self.event = event
        self.contextName = contextName
    }

    /// Whether a request matches this rule.
    /// - Parameter request: The tracked event and its context.
    /// - Returns: True when the event and, if one is named, the context match.
    package func matches(_ request: CampaignRequest) -> Bool {
        if let contextName, contextName != request.contextName { return false }
        switch (event, request.trigger) {
        case (.action(let expected), .action(let name)):
            return expected == name
        case (.itemView(let expectedType, let expectedID), .itemView(let type, let id)):
            return (expectedType.map { $0 == type } ?? true) && (expectedID.map { $0 == id } ?? true)
        case (.interaction(let expected, let expectedType, let expectedID), .interaction(let kind, let type, let ids)):
            return expected == kind && (expectedType.map { $0 == type } ?? true)
                && (expectedID.map { ids.contains($0) } ?? true)
        default:
            return false
        }
    }

    /// For example `action "Add to Cart"`, `view Product:any in Product` or `addToCart any item:sku-1`.
    package var description: String {
        var text: String
        switch event {
        case .action(let name): text = "action \"\(name)\""
        case .itemView(let type, let id): text = "view \(type?.rawValue ?? "any item"):\(id ?? "any")"
        case .interaction(let interaction, let type, let id):
            text = "\(interaction.rawValue) \(type?.rawValue ?? "any item"):\(id ?? "any")"
        }
        if let contextName { text += " in \(contextName)" }
        return text
    }
}
