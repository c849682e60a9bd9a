import Foundation

/// What an `NSUserActivity` is set to for a published activity: the mapping `UserActivityPublisher` applies on
/// Apple platforms, kept portable so that it is tested everywhere.
struct UserActivityAttributes: Sendable, Hashable {
    var activityType: String
    var title: String?
    var keywords: Set<String>
    var userInfo: [String: String]
    var requiredUserInfoKeys: Set<String>
    /// The activity's URL when it is `http` or `https`, the only schemes `NSUserActivity.webpageURL` accepts.
    var webpageURL: URL?
    var isEligibleForHandoff: Bool
    var isEligibleForSearch: Bool
    var isEligibleForPublicIndexing: Bool
    var isEligibleForPrediction: Bool
    /// The phrase Siri suggests, only for an activity eligible for prediction.
    var suggestedInvocationPhrase: String?

    init(_ activity: PublishedActivity) {
        activityType = activity.activityType
        title = activity.title
        keywords = activity.keywords
        userInfo = activity.userInfo
        requiredUserInfoKeys = activity.requiredUserInfoKeys
        if let url = activity.url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            webpageURL = url
        }
        isEligibleForHandoff = activity.eligibility.contains(.handoff)
        isEligibleForSearch = activity.eligibility.contains(.search)
        isEligibleForPublicIndexing = activity.eligibility.contains(.publicIndexing)
        isEligibleForPrediction = activity.eligibility.contains(.prediction)
        suggestedInvocationPhrase = isEligibleForPrediction ? activity.suggestedInvocationPhrase : nil
    }
}
