import ActuateCore
import Foundation

/// What an `NSUserActivity` is set to for a published activity: the mapping `UserActivityPublisher` applies on
/// Apple platforms, kept portable so that it is tested everywhere.
///
/// Each `ActivityEligibility` sets its flag: `.handoff`, `.search` and `.publicIndexing` their own; `.perform`
/// (Siri suggestions only) sets `isEligibleForPrediction`; `.prediction` sets `isEligibleForPrediction` and, as
/// Flint does, `isEligibleForSearch`, and carries the suggested invocation phrase.
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
        let eligibility = activity.eligibility
        isEligibleForHandoff = eligibility.contains(.handoff)
        // Flint forces search for prediction, which the system needs too.
        isEligibleForSearch = eligibility.contains(.search) || eligibility.contains(.prediction)
        isEligibleForPublicIndexing = eligibility.contains(.publicIndexing)
        // `.perform` asks for Siri suggestions only, which since iOS 12 and watchOS 5 the system makes only for
        // activities eligible for prediction (Flint set no flag for it, so its `[.perform]` was never suggested).
        isEligibleForPrediction = eligibility.contains(.prediction) || eligibility.contains(.perform)
        suggestedInvocationPhrase = eligibility.contains(.prediction) ? activity.suggestedInvocationPhrase : nil
    }
}
