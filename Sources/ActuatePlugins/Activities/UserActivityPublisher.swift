import ActuateCore

// NSUserActivity and every property set outside the inner guards are Foundation's, on all five Apple platforms
// (`.ci/apple-only`); the file needs no Core Spotlight.
#if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
import Dispatch
import Foundation
#if canImport(Intents) && (os(iOS) || os(watchOS) || os(visionOS))
import Intents
#endif

/// Publishes activities as the current `NSUserActivity`, on the main actor.
///
/// Each published activity replaces the previous one as current; the publisher keeps it alive so that the
/// system can offer it for Handoff, Spotlight and Siri suggestions.
///
/// <!-- readme: apple-only (NSUserActivity) -->
/// ```swift
/// dispatcher.add(plugin: ActivitiesPlugin(publisher: UserActivityPublisher(), diagnostics: diagnostics))
/// ```
@MainActor
public final class UserActivityPublisher: ActivityPublisher {
    /// The activity made current last.
    public private(set) var currentActivity: NSUserActivity?

    /// Creates the publisher.
    public nonisolated init() {}

    /// Makes `activity` the current user activity, on the main queue, in the order activities are published.
    public nonisolated func publish(_ activity: PublishedActivity) {
        DispatchQueue.main.async {
            MainActor.assumeIsolated { self.makeCurrent(activity) }
        }
    }

    /// Builds the `NSUserActivity` for an activity.
    ///
    /// - Parameter activity: The published activity.
    /// - Returns: A user activity with its title, keywords, user info, required keys, web page URL (only for
    ///   `http` and `https` URLs, the only ones `NSUserActivity` accepts) and eligibility set.
    public static func userActivity(for activity: PublishedActivity) -> NSUserActivity {
        // A thin adapter: the mapping is `UserActivityAttributes`, which is tested on every platform.
        let attributes = UserActivityAttributes(activity)
        let userActivity = NSUserActivity(activityType: attributes.activityType)
        userActivity.title = attributes.title
        userActivity.keywords = attributes.keywords
        userActivity.userInfo = attributes.userInfo
        userActivity.requiredUserInfoKeys = attributes.requiredUserInfoKeys
        userActivity.webpageURL = attributes.webpageURL
        userActivity.isEligibleForHandoff = attributes.isEligibleForHandoff
        userActivity.isEligibleForSearch = attributes.isEligibleForSearch
        userActivity.isEligibleForPublicIndexing = attributes.isEligibleForPublicIndexing
        #if os(iOS) || os(watchOS) || os(visionOS)
        userActivity.isEligibleForPrediction = attributes.isEligibleForPrediction
        #endif
        #if canImport(Intents) && (os(iOS) || os(watchOS) || os(visionOS))
        if let phrase = attributes.suggestedInvocationPhrase {
            userActivity.suggestedInvocationPhrase = phrase
        }
        #endif
        return userActivity
    }

    private func makeCurrent(_ activity: PublishedActivity) {
        let userActivity = Self.userActivity(for: activity)
        currentActivity = userActivity
        userActivity.becomeCurrent()
    }
}

extension ActivityRouter {
    /// Continues an `NSUserActivity` the system handed to the app.
    ///
    /// Only `String` user-info values are passed to the input decoder; others are left out.
    /// - Parameters:
    ///   - userActivity: The activity to continue.
    ///   - session: The session to perform the action in.
    /// - Returns: What happened; see ``continue(activityType:userInfo:session:)``.
    @MainActor
    public func `continue`(_ userActivity: NSUserActivity, session: ActionSession) async -> ActivityContinuationResult {
        var userInfo: [String: String] = [:]
        for (key, value) in userActivity.userInfo ?? [:] {
            if let key = key as? String, let value = value as? String { userInfo[key] = value }
        }
        return await self.continue(activityType: userActivity.activityType, userInfo: userInfo, session: session)
    }
}
#endif
