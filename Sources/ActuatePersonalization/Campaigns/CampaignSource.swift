/// Where campaigns come from: asked after each tracked action and item view, it answers with the campaigns
/// that event earns.
///
/// ``LocalCampaignSource``, the embedded default, answers from the `campaigns` array of a rules file. A source
/// that asks a server works the same way; requests are made one at a time, in the order the events were
/// tracked, so campaigns arrive in that order too.
///
/// Implementation requirements:
/// - Answer each request once, by returning or throwing. A thrown error is recorded as a
///   ``CampaignEventType/campaignSourceError`` event; it never stops later requests.
/// - Return campaigns in the order they should be offered; for one target only the last is kept while the
///   context cannot show it.
public protocol CampaignSource: Sendable {
    /// The campaigns that an event earns.
    /// - Parameter request: What was tracked, and in which context.
    /// - Returns: The campaigns, in the order they should be offered.
    /// - Throws: Any error; it is recorded, and the request earns nothing.
    func campaigns(for request: CampaignRequest) async throws -> [Campaign]
}

/// What a campaign source is asked about: the event that was tracked, the context it was tracked in, and who
/// tracked it.
public struct CampaignRequest: Sendable, Hashable, CustomStringConvertible {
    /// The event.
    public var trigger: CampaignTrigger
    /// The name of the context (`global` or a screen's name).
    public var contextName: String
    /// The user's stable anonymous id, which control groups are assigned by; a ``CampaignManager`` always sets
    /// it from its reporter's identity. Nil in a request made without a user.
    public var visitorId: String?
    /// The user's id, once identified.
    public var userId: String?

    /// Creates a request.
    /// - Parameters:
    ///   - trigger: The event.
    ///   - contextName: The name of the context it happened in.
    ///   - visitorId: The user's stable anonymous id.
    ///   - userId: The user's id, once identified.
    public init(trigger: CampaignTrigger, contextName: String, visitorId: String? = nil, userId: String? = nil) {
        self.trigger = trigger
        self.contextName = contextName
        self.visitorId = visitorId
        self.userId = userId
    }

    /// The trigger and the context, for example `action "Add to Cart" in Product`.
    public var description: String { "\(trigger) in \(contextName)" }
}

/// An event that can earn campaigns: an action the app tracked, or an item being viewed.
public enum CampaignTrigger: Sendable, Hashable, CustomStringConvertible {
    /// ``CampaignContext/trackAction(_:)`` was called with this name.
    case action(String)
    /// An item of this type and id is being viewed (`CampaignContext/viewItem(_:)` and its siblings).
    case itemView(type: ItemType, id: String)

    /// `action "name"` or `view Product:sku-1`.
    public var description: String {
        switch self {
        case .action(let name): "action \"\(name)\""
        case .itemView(let type, let id): "view \(type.rawValue):\(id)"
        }
    }
}
