import Foundation

/// One action in the timeline: what was performed, where, with what, and how it ended.
public struct TimelineEntry: Sendable, Hashable, Codable {
    /// The request's unique identifier.
    public var requestID: UInt64
    /// The action's display name.
    public var actionName: String
    /// The feature's display name.
    public var featureName: String
    /// The feature's identifier.
    public var featurePath: String
    /// The session the action ran in.
    public var sessionName: String
    /// The input's ``Loggable/loggingDescription``.
    public var inputDescription: String
    /// Whether the user asked for it directly.
    public var userInitiated: Bool
    /// Where the request came from.
    public var source: ActionSource
    /// When it was requested.
    public var date: Date
    /// How it ended, once it has.
    public var outcome: TimelineOutcome?
    /// How long it took, in seconds, once it has completed.
    public var duration: TimeInterval?

    /// Whether the action has completed.
    public var isComplete: Bool { outcome != nil }
}

/// How an action ended, as everything that records or prints outcomes shows it: the one classification of
/// ``ActionPerformOutcome`` (see ``ActionPerformOutcome/summary``).
///
/// A failure's message is the error's ``ActionPerformOutcome/errorDescription``: its
/// ``Loggable/loggingDescription`` when the error is ``Loggable``, so private data never reaches a timeline,
/// an action stack, a log or a debug report. A failure with ``ActionCancellationError`` is ``cancelled``.
public enum TimelineOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The action succeeded.
    case success
    /// The action succeeded and ended its feature's current use.
    case successWithFeatureTermination
    /// The action failed; `message` is the error's redacted description.
    case failure(message: String)
    /// The action failed and ended its feature's current use; `message` is the error's redacted description.
    case failureWithFeatureTermination(message: String)
    /// The action was cancelled.
    case cancelled

    /// Classifies an outcome.
    ///
    /// - Parameter outcome: The outcome the action reported.
    public init(_ outcome: ActionPerformOutcome) {
        switch outcome {
        case .success: self = .success
        case .successWithFeatureTermination: self = .successWithFeatureTermination
        case .failure(let error) where error is ActionCancellationError: self = .cancelled
        case .failureWithFeatureTermination(let error) where error is ActionCancellationError: self = .cancelled
        case .failure(let error): self = .failure(message: ErrorDescription.redacted(error))
        case .failureWithFeatureTermination(let error):
            self = .failureWithFeatureTermination(message: ErrorDescription.redacted(error))
        }
    }

    /// The failure's message, or nil for successes and cancellations.
    public var message: String? {
        switch self {
        case .failure(let message), .failureWithFeatureTermination(let message): message
        case .success, .successWithFeatureTermination, .cancelled: nil
        }
    }

    /// Whether the action failed or was cancelled.
    public var isFailure: Bool {
        switch self {
        case .success, .successWithFeatureTermination: false
        case .failure, .failureWithFeatureTermination, .cancelled: true
        }
    }

    public var description: String {
        switch self {
        case .success: "success"
        case .successWithFeatureTermination: "success (feature terminated)"
        case .failure(let message): "FAILURE: \(message)"
        case .failureWithFeatureTermination(let message): "FAILURE (feature terminated): \(message)"
        case .cancelled: "CANCELLED"
        }
    }
}
