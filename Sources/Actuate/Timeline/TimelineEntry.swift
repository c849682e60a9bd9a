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

/// How a timeline entry's action ended.
public enum TimelineOutcome: Sendable, Hashable, Codable, CustomStringConvertible {
    case success
    case successWithFeatureTermination
    case failure(message: String)
    case failureWithFeatureTermination(message: String)
    case cancelled

    init(_ outcome: ActionPerformOutcome) {
        switch outcome {
        case .success: self = .success
        case .successWithFeatureTermination: self = .successWithFeatureTermination
        case .failure(let error) where error is ActionCancellationError: self = .cancelled
        case .failure(let error): self = .failure(message: String(describing: error))
        case .failureWithFeatureTermination(let error):
            self = .failureWithFeatureTermination(message: String(describing: error))
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
