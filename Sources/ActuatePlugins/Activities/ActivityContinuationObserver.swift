import ActuateCore

/// Hears about every activity an ``ActivityRouter`` was asked to continue, once the router knows what happened.
///
/// Observers are called on the task that continued the activity, after the action has completed, in the order
/// they were added. The activity's user info is not passed on: it may hold private values.
///
/// ```swift
/// final class ContinuationLog: ActivityContinuationObserver {
///     func activityRouter(_ router: ActivityRouter, didContinue continuation: ActivityContinuation) {
///         print(continuation.activityType, continuation.result)
///     }
/// }
/// activityRouter.add(observer: ContinuationLog())
/// ```
public protocol ActivityContinuationObserver: AnyObject, Sendable {
    /// Receives one continuation.
    ///
    /// - Parameters:
    ///   - router: The router that continued the activity.
    ///   - continuation: The activity type, the session and what happened.
    func activityRouter(_ router: ActivityRouter, didContinue continuation: ActivityContinuation)
}

/// One activity an ``ActivityRouter`` was asked to continue, and what happened.
public struct ActivityContinuation: Sendable {
    /// The continued activity's type.
    public var activityType: String
    /// The name of the session the action was (or would have been) performed in.
    public var sessionName: String
    /// What happened.
    public var result: ActivityContinuationResult

    /// Creates a continuation.
    ///
    /// - Parameters:
    ///   - activityType: The continued activity's type.
    ///   - sessionName: The session's name.
    ///   - result: What happened.
    init(activityType: String, sessionName: String, result: ActivityContinuationResult) {
        self.activityType = activityType
        self.sessionName = sessionName
        self.result = result
    }
}
