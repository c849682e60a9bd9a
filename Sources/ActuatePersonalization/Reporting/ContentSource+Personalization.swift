import ActuateReporting

// The content sources ActuatePersonalization registers with the reporting pipeline: every event its content
// actions, campaigns and content blocks record names one of them in its `contentSource` property.

extension ContentSource {
    /// A Personyze-style content action.
    public static let contentAction = ContentSource(rawValue: "action")
    /// An Evergage-style campaign.
    public static let campaign = ContentSource(rawValue: "campaign")
    /// An Exponea-style in-app content block.
    public static let contentBlock = ContentSource(rawValue: "contentBlock")
}

extension ContentReference {
    /// A reference to a content action.
    /// - Parameters:
    ///   - id: The action's numeric id.
    ///   - name: The action's name.
    /// - Returns: The reference.
    public static func contentAction(id: Int, name: String? = nil) -> ContentReference {
        ContentReference(source: .contentAction, id: String(id), name: name)
    }

    /// A reference to a campaign.
    /// - Parameters:
    ///   - id: The campaign id.
    ///   - name: The campaign name.
    /// - Returns: The reference.
    public static func campaign(id: String, name: String? = nil) -> ContentReference {
        ContentReference(source: .campaign, id: id, name: name)
    }

    /// A reference to a content block.
    /// - Parameters:
    ///   - id: The block id.
    ///   - name: The block name.
    /// - Returns: The reference.
    public static func contentBlock(id: String, name: String? = nil) -> ContentReference {
        ContentReference(source: .contentBlock, id: id, name: name)
    }
}
