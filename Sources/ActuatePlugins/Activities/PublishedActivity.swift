import ActuateCore
import Foundation

/// An activity an action published after it succeeded: a `Sendable` snapshot of its `ActivityBuilder`.
///
/// ``ActivityPublisher``s turn it into whatever the platform offers: an `NSUserActivity` on Apple platforms
/// (`UserActivityPublisher`), a record in memory elsewhere (``RecordingActivityPublisher``).
public struct PublishedActivity: Sendable, Hashable, Codable {
    /// The activity type identifier.
    public var activityType: String
    /// The title shown to the user.
    public var title: String?
    /// A subtitle shown under the title.
    public var subtitle: String?
    /// Search keywords.
    public var keywords: Set<String>
    /// Values needed to continue the activity.
    public var userInfo: [String: String]
    /// The keys of `userInfo` that must be present to continue the activity.
    public var requiredUserInfoKeys: Set<String>
    /// A URL for the activity.
    public var url: URL?
    /// How the activity is exposed to the system.
    public var eligibility: Set<ActivityEligibility>
    /// The phrase to suggest for a voice shortcut, from `Action.suggestedInvocationPhrase`.
    public var suggestedInvocationPhrase: String?
    /// The display name of the action that published it.
    public var actionName: String
    /// The identifier of the action's feature.
    public var featurePath: FeaturePath

    /// Creates an activity.
    ///
    /// - Parameters:
    ///   - activityType: The activity type identifier.
    ///   - title: The title shown to the user.
    ///   - subtitle: A subtitle shown under the title.
    ///   - keywords: Search keywords.
    ///   - userInfo: Values needed to continue the activity.
    ///   - requiredUserInfoKeys: The keys of `userInfo` that must be present to continue it.
    ///   - url: A URL for the activity.
    ///   - eligibility: How the activity is exposed to the system.
    ///   - suggestedInvocationPhrase: The phrase to suggest for a voice shortcut.
    ///   - actionName: The display name of the action that published it.
    ///   - featurePath: The identifier of the action's feature.
    init(
        activityType: String,
        title: String? = nil,
        subtitle: String? = nil,
        keywords: Set<String> = [],
        userInfo: [String: String] = [:],
        requiredUserInfoKeys: Set<String> = [],
        url: URL? = nil,
        eligibility: Set<ActivityEligibility>,
        suggestedInvocationPhrase: String? = nil,
        actionName: String,
        featurePath: FeaturePath
    ) {
        self.activityType = activityType
        self.title = title
        self.subtitle = subtitle
        self.keywords = keywords
        self.userInfo = userInfo
        self.requiredUserInfoKeys = requiredUserInfoKeys
        self.url = url
        self.eligibility = eligibility
        self.suggestedInvocationPhrase = suggestedInvocationPhrase
        self.actionName = actionName
        self.featurePath = featurePath
    }

    /// Takes a snapshot of a prepared builder.
    ///
    /// - Parameters:
    ///   - builder: The builder, after `Action.prepareActivity(_:)`.
    ///   - featurePath: The identifier of the action's feature.
    init<A: Action>(_ builder: ActivityBuilder<A>, featurePath: FeaturePath) {
        self.init(
            activityType: builder.activityType,
            title: builder.title,
            subtitle: builder.subtitle,
            keywords: builder.keywords,
            userInfo: builder.userInfo,
            requiredUserInfoKeys: builder.requiredUserInfoKeys,
            url: builder.url,
            eligibility: builder.eligibility,
            suggestedInvocationPhrase: A.suggestedInvocationPhrase,
            actionName: A.name,
            featurePath: featurePath
        )
    }
}
