import ActuateReporting

/// A campaign pushed to the app for one target: what to show (``data``), which campaign, experience and message
/// it comes from, and whether this user is in its control group.
///
/// A campaign reaches the handler that a ``CampaignContext`` registered for its ``target``. The app shows it,
/// unless ``isControlGroup`` is true, and reports what happened with ``CampaignContext/trackImpression(_:)``,
/// ``CampaignContext/trackClickthrough(_:)`` and ``CampaignContext/trackDismissal(_:)``.
public struct Campaign: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The app-defined name of what the data is for and how it is shaped, for example `product-banner`.
    public var target: String
    /// The campaign's id.
    public var campaignID: String
    /// The campaign's name.
    public var campaignName: String?
    /// The id of the campaign's experience (its variant).
    public var experienceID: String?
    /// The name of the experience.
    public var experienceName: String?
    /// The id of the message within the experience.
    public var messageID: String?
    /// The items the campaign promotes, as `Type:id` keys such as `Product:sku-1` (see `Item.itemKey`).
    public var promotedItemKeys: [String]
    /// The payload, shaped as the target defines.
    public var data: [String: JSONValue]
    /// Whether this user is in the campaign's control group: run the same logic, do not show the campaign, and
    /// still call ``CampaignContext/trackImpression(_:)``, which records a control impression.
    public var isControlGroup: Bool

    /// Creates a campaign.
    /// - Parameters:
    ///   - target: What the data is for.
    ///   - campaignID: The campaign's id.
    ///   - campaignName: The campaign's name.
    ///   - experienceID: The experience's id.
    ///   - experienceName: The experience's name.
    ///   - messageID: The message's id.
    ///   - promotedItemKeys: The promoted items, as `Type:id` keys.
    ///   - data: The payload.
    ///   - isControlGroup: Whether this user is in the control group.
    init(
        target: String,
        campaignID: String,
        campaignName: String? = nil,
        experienceID: String? = nil,
        experienceName: String? = nil,
        messageID: String? = nil,
        promotedItemKeys: [String] = [],
        data: [String: JSONValue] = [:],
        isControlGroup: Bool = false
    ) {
        self.target = target
        self.campaignID = campaignID
        self.campaignName = campaignName
        self.experienceID = experienceID
        self.experienceName = experienceName
        self.messageID = messageID
        self.promotedItemKeys = promotedItemKeys
        self.data = data
        self.isControlGroup = isControlGroup
    }

    /// The campaign as reporting names content: source `campaign`, its id and name.
    package var contentReference: ContentReference {
        .campaign(id: campaignID, name: campaignName)
    }

    /// The properties every event about this campaign carries: the content's identity, the target, the
    /// experience and message, and `controlGroup`.
    var eventProperties: [String: JSONValue] {
        var properties = EventProperties.content(contentReference)
        properties[CampaignEventKey.target] = .string(target)
        properties[CampaignEventKey.controlGroup] = .bool(isControlGroup)
        if let experienceID { properties[CampaignEventKey.experienceID] = .string(experienceID) }
        if let experienceName { properties[CampaignEventKey.experienceName] = .string(experienceName) }
        if let messageID { properties[CampaignEventKey.messageID] = .string(messageID) }
        return properties
    }

    /// `campaign "Name" (id, message m) for target "t"`, with `control group` in the parentheses when it is one;
    /// never the data.
    public var description: String {
        var text = "campaign"
        if let campaignName { text += " \"\(campaignName)\"" }
        text += " (\(campaignID)"
        if let experienceID { text += ", experience \(experienceID)" }
        if let messageID { text += ", message \(messageID)" }
        if isControlGroup { text += ", control group" }
        text += ") for target \"\(target)\""
        return text
    }

    private enum CodingKeys: String, CodingKey {
        case target
        case campaignID = "campaignId"
        case campaignName
        case experienceID = "experienceId"
        case experienceName
        case messageID = "messageId"
        case promotedItemKeys
        case data
        case isControlGroup
    }
}
