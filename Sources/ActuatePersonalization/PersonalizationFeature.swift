import Actuate

/// The feature whose actions show personalized content and record what the user did with it.
///
/// Content actions, campaigns and content blocks are performed as actions of this feature through the
/// dispatcher, so they appear in the timeline, action stacks and analytics like any other action, and reach
/// the reporting layer through the same plugins.
final class PersonalizationFeature: Feature {
    static var description: String {
        "Personalized content: content actions, campaigns and content blocks, and what users do with them."
    }

    static func prepare(actions: FeatureActionsBuilder) {
        // Content actions and the tracker (Personyze-style).
        declareContentActions(actions)
        // Campaign delivery (Evergage-style).
        declareCampaignActions(actions)
        // Content blocks (Exponea-style).
        declareContentBlockActions(actions)
    }
}
