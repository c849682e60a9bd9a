import ActuateReporting

/// Where campaigns come from: asked after each tracked action, item view and item interaction (a cart change, a
/// purchase, a review, a share, a comment or a favourite), it answers with the campaigns that event earns.
///
/// ``LocalCampaignSource``, the embedded default, answers from the `campaigns` array of a rules file;
/// ``HTTPCampaignSource`` asks a campaign server. Requests are made one at a time, in the order the events were
/// tracked, so campaigns arrive in that order too.
///
/// Implementation requirements:
/// - Answer each request once, by returning or throwing. A thrown error is recorded as a
///   `CampaignEventType.campaignSourceError` event; it never stops later requests.
/// - Return campaigns in the order they should be offered; for one target only the last is kept while the
///   context cannot show it.
public protocol CampaignSource: Sendable {
    /// The campaigns that an event earns.
    /// - Parameter request: What was tracked, and in which context.
    /// - Returns: The campaigns, in the order they should be offered.
    /// - Throws: Any error; it is recorded, and the request earns nothing.
    func campaigns(for request: CampaignRequest) async throws -> [Campaign]
}

/// What a campaign source is asked about: the event that was tracked, the context it was tracked in, the user it
/// was tracked for, and the event's details.
public struct CampaignRequest: Sendable, Hashable, CustomStringConvertible {
    /// The event.
    package var trigger: CampaignTrigger
    /// The name of the context (`global` or a screen's name).
    package var contextName: String
    /// The user the event was tracked for, as the reporter knew them then; nil for a request made by hand.
    /// A server assigns test and control groups per user from it.
    package var identity: StoredIdentity?
    /// The properties of the event recorded for the trigger (see `CampaignEventKey`): `item` and `actionName`
    /// for a view, `lineItem` and `cart` for a cart change, `order` for a purchase, `item` and `review` for a
    /// review, `item` for a share, comment or favourite, and `name` for an action.
    package var properties: [String: JSONValue]

    /// Creates a request.
    /// - Parameters:
    ///   - trigger: The event.
    ///   - contextName: The name of the context it happened in.
    ///   - identity: The user it was tracked for.
    ///   - properties: The properties of the event recorded for it.
    package init(
        trigger: CampaignTrigger,
        contextName: String,
        identity: StoredIdentity? = nil,
        properties: [String: JSONValue] = [:]
    ) {
        self.trigger = trigger
        self.contextName = contextName
        self.identity = identity
        self.properties = properties
    }

    /// The trigger and the context, for example `action "Add to Cart" in Product`.
    public var description: String { "\(trigger) in \(contextName)" }
}

/// An event that can earn campaigns: an action the app tracked, an item being viewed, or another interaction with
/// items.
package enum CampaignTrigger: Sendable, Hashable, CustomStringConvertible {
    /// ``CampaignContext/trackAction(_:)`` was called with this name.
    case action(String)
    /// An item of this type and id is being viewed (`CampaignContext/viewItem(_:)` and its siblings).
    case itemView(type: ItemType, id: String)
    /// The user interacted with items of this type and these ids: the product of a cart line, the products of
    /// an order, or the one item reviewed, shared, commented on or marked as a favourite.
    case interaction(ItemInteraction, type: ItemType, ids: [String])

    /// `action "name"`, `view Product:sku-1` or `addToCart Product:sku-1` (`purchase Product:sku-1,sku-2`).
    package var description: String {
        switch self {
        case .action(let name): "action \"\(name)\""
        case .itemView(let type, let id): "view \(type.rawValue):\(id)"
        case .interaction(let interaction, let type, let ids):
            "\(interaction.rawValue) \(type.rawValue):\(ids.joined(separator: ","))"
        }
    }
}

/// The interactions with items, beside views, that ask the campaign source for campaigns; each is named as the
/// ``CampaignContext`` call that tracks it, which is also its key in a rules file's triggers.
package enum ItemInteraction: String, Sendable, Hashable, Codable, CaseIterable {
    /// ``CampaignContext/addToCart(_:)``.
    case addToCart
    /// ``CampaignContext/removeFromCart(_:)``.
    case removeFromCart
    /// ``CampaignContext/purchase(_:)``, once the purchase is recorded.
    case purchase
    /// ``CampaignContext/review(_:details:)``.
    case review
    /// ``CampaignContext/share(_:)``.
    case share
    /// ``CampaignContext/comment(_:)``.
    case comment
    /// ``CampaignContext/favorite(_:)``.
    case favorite

    /// Whether the interaction is about products only (cart lines and orders hold products).
    var isAboutProducts: Bool {
        switch self {
        case .addToCart, .removeFromCart, .purchase: true
        case .review, .share, .comment, .favorite: false
        }
    }
}
