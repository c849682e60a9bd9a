import Foundation

/// Describes the activity an action publishes after it succeeds.
///
/// An action fills it in from ``Action/prepareActivity(_:)``, using ``input`` to make it specific, or calls
/// ``cancel()`` to publish nothing this time.
///
/// <!-- readme: in extension ShowArticleAction -->
/// ```swift
/// static func prepareActivity(_ activity: ActivityBuilder<ShowArticleAction>) throws {
///     activity.title = "View \(activity.input.name)"
///     activity.keywords = ["product", activity.input.name]
/// }
/// ```
public final class ActivityBuilder<A: Action> {
    /// The input the action was performed with.
    public let input: A.InputType
    /// The activity type identifier, by default derived from the feature path and action name.
    public var activityType: String
    /// The title shown to the user.
    public var title: String?
    /// A subtitle shown under the title.
    public var subtitle: String?
    /// Search keywords.
    public var keywords: Set<String> = []
    /// Values needed to continue the activity.
    public var userInfo: [String: String] = [:]
    /// The keys of ``userInfo`` that must be present to continue the activity.
    public var requiredUserInfoKeys: Set<String> = []
    /// A URL for the activity, for example the action's app link.
    public var url: URL?
    /// The eligibility the action declared; the builder may narrow it.
    public var eligibility: Set<ActivityEligibility>
    /// Whether ``cancel()`` was called.
    public private(set) var isCancelled = false

    /// Creates a builder for one performance of `A`.
    public init(input: A.InputType, activityType: String, eligibility: Set<ActivityEligibility>) {
        self.input = input
        self.activityType = activityType
        self.eligibility = eligibility
    }

    /// Publishes nothing for this performance of the action.
    public func cancel() {
        isCancelled = true
    }
}
