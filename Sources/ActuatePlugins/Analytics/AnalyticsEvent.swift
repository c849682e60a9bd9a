import ActuateCore
import Foundation

/// One analytics event: an action with an `Action.analyticsID` began or ended.
///
/// The input appears only as its `Loggable.loggingDescription`, so values wrapped in `Redacted` stay
/// redacted; everything else an analytics back-end needs goes in `attributes`, typed as `AnalyticsValue`.
public struct AnalyticsEvent: Sendable, Hashable, Codable {
    /// Whether an event marks the start or the end of an action.
    public enum Phase: String, Sendable, Hashable, Codable {
        /// The action is about to run.
        case began
        /// The action has completed.
        case ended
    }

    /// Whether the action began or ended.
    public var phase: Phase
    /// The action's `Action.analyticsID`.
    public var analyticsID: String
    /// The request's unique identifier, shared by the begin and end events of one request.
    public var requestID: UInt64
    /// The action's display name.
    public var actionName: String
    /// The feature's identifier.
    public var featurePath: FeaturePath
    /// The session the action ran in.
    public var sessionName: String
    /// Where the request came from.
    public var source: ActionSource
    /// Whether the user asked for the action directly.
    public var userInitiated: Bool
    /// The input's `Loggable.loggingDescription`, never its `String(describing:)`.
    public var inputDescription: String
    /// The attributes from `Action.analyticsAttributes(forRequest:)`; empty when it returned `nil`.
    public var attributes: [String: AnalyticsValue]
    /// When the event happened, on the dispatcher's clock: when the request was made for
    /// ``Phase/began``, when the action completed for ``Phase/ended``.
    public var date: Date
    /// How the action ended; `nil` for ``Phase/began`` events.
    public var outcome: AnalyticsOutcome?
    /// Whether the outcome ended the feature's current use; always `false` for ``Phase/began`` events.
    public var terminatedFeature: Bool
    /// How long the action took, in seconds, on the dispatcher's monotonic clock; `nil` for ``Phase/began``.
    public var duration: TimeInterval?

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - phase: Whether the action began or ended.
    ///   - analyticsID: The action's analytics identifier.
    ///   - requestID: The request's unique identifier.
    ///   - actionName: The action's display name.
    ///   - featurePath: The feature's identifier.
    ///   - sessionName: The session's name.
    ///   - source: Where the request came from.
    ///   - userInitiated: Whether the user asked for the action directly.
    ///   - inputDescription: The input's logging description.
    ///   - attributes: The action's analytics attributes.
    ///   - date: When the event happened.
    ///   - outcome: How the action ended, for end events.
    ///   - terminatedFeature: Whether the outcome ended the feature's current use.
    ///   - duration: How long the action took, in seconds, for end events.
    init(
        phase: Phase,
        analyticsID: String,
        requestID: UInt64,
        actionName: String,
        featurePath: FeaturePath,
        sessionName: String,
        source: ActionSource,
        userInitiated: Bool,
        inputDescription: String,
        attributes: [String: AnalyticsValue],
        date: Date,
        outcome: AnalyticsOutcome? = nil,
        terminatedFeature: Bool = false,
        duration: TimeInterval? = nil
    ) {
        self.phase = phase
        self.analyticsID = analyticsID
        self.requestID = requestID
        self.actionName = actionName
        self.featurePath = featurePath
        self.sessionName = sessionName
        self.source = source
        self.userInitiated = userInitiated
        self.inputDescription = inputDescription
        self.attributes = attributes
        self.date = date
        self.outcome = outcome
        self.terminatedFeature = terminatedFeature
        self.duration = duration
    }
}

/// How an action ended, as analytics report it: success, failure with its error, or cancellation.
public enum AnalyticsOutcome: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The action succeeded.
    case success
    /// The action failed with an error, described by `ActionPerformOutcome.errorDescription`.
    case failure(errorDescription: String)
    /// The action was cancelled (it failed with `ActionCancellationError`).
    case cancelled

    /// Classifies an outcome through its one classification, `ActionPerformOutcome.summary`.
    ///
    /// - Parameter outcome: The outcome the action reported.
    public init(_ outcome: ActionPerformOutcome) {
        switch outcome.summary {
        case .success, .successWithFeatureTermination: self = .success
        case .cancelled: self = .cancelled
        case .failure(let message), .failureWithFeatureTermination(let message):
            self = .failure(errorDescription: message)
        }
    }

    /// Whether the action succeeded.
    var isSuccess: Bool { self == .success }

    public var description: String {
        switch self {
        case .success: "success"
        case .failure(let errorDescription): "failure: \(errorDescription)"
        case .cancelled: "cancelled"
        }
    }
}
