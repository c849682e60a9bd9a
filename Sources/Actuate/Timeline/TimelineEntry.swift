import Foundation

/// One action in the timeline: what was performed, where, with what, when, and how it ended.
///
/// Dates and durations come from the clock of the dispatcher that performed the action. In JSON it is an
/// entry of debug report format 1 (see ``DebugReportDecoder``).
public struct TimelineEntry: Sendable, Hashable {
    /// The request's unique identifier.
    public var requestID: UInt64
    /// The session the action ran in.
    public var sessionName: String
    /// The feature's display name.
    public var featureName: String
    /// The feature's identifier.
    package var featurePath: String
    /// The action's display name.
    public var actionName: String
    /// The label of the queue the action ran on.
    package var queueLabel: String
    /// The input's ``Loggable/loggingDescription``.
    public var inputDescription: String
    /// Whether the user asked for it directly.
    public var userInitiated: Bool
    /// Where the request came from.
    public var source: ActionSource
    /// When it was requested, on the dispatcher's wall clock, to the microsecond.
    public var startDate: Date
    /// The dispatcher clock's monotonic reading when it was requested, in nanoseconds: sort and lay out
    /// entries by it; ``startDate`` is for people.
    package var startOffsetNanoseconds: UInt64
    /// How long it took, in nanoseconds on the dispatcher's monotonic clock, once it has completed.
    public var durationNanoseconds: UInt64?
    /// How it ended, once it has.
    public var outcome: TimelineOutcome?

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - requestID: The request's unique identifier.
    ///   - sessionName: The session the action ran in.
    ///   - featureName: The feature's display name.
    ///   - featurePath: The feature's identifier.
    ///   - actionName: The action's display name.
    ///   - queueLabel: The label of the action's queue.
    ///   - inputDescription: The input's logging description.
    ///   - userInitiated: Whether the user asked for it directly.
    ///   - source: Where the request came from.
    ///   - startDate: When it was requested.
    ///   - startOffsetNanoseconds: The monotonic reading when it was requested.
    ///   - durationNanoseconds: How long it took, once it has completed.
    ///   - outcome: How it ended, once it has.
    public init(
        requestID: UInt64,
        sessionName: String,
        featureName: String,
        featurePath: String,
        actionName: String,
        queueLabel: String,
        inputDescription: String,
        userInitiated: Bool,
        source: ActionSource,
        startDate: Date,
        startOffsetNanoseconds: UInt64,
        durationNanoseconds: UInt64? = nil,
        outcome: TimelineOutcome? = nil
    ) {
        self.requestID = requestID
        self.sessionName = sessionName
        self.featureName = featureName
        self.featurePath = featurePath
        self.actionName = actionName
        self.queueLabel = queueLabel
        self.inputDescription = inputDescription
        self.userInitiated = userInitiated
        self.source = source
        self.startDate = startDate
        self.startOffsetNanoseconds = startOffsetNanoseconds
        self.durationNanoseconds = durationNanoseconds
        self.outcome = outcome
    }

    /// How long it took, in seconds, once it has completed.
    public var duration: TimeInterval? {
        durationNanoseconds.map { TimeInterval($0) / 1e9 }
    }

    /// Whether the action has completed.
    package var isComplete: Bool { outcome != nil }
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
    @usableFromInline
    package init(_ outcome: ActionPerformOutcome) {
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

    /// Whether the action was cancelled: a failure with ``ActionCancellationError``, which dumps count on its own.
    public var isCancellation: Bool { self == .cancelled }

    /// The mark every dump puts before an action with this outcome (`Timeline.textDump()`, `actuate dump` and
    /// its HTML page): `✓` for a success, `✗` for a failure, `⊘` for a cancellation.
    public var symbol: String {
        switch self {
        case .success, .successWithFeatureTermination: "✓"
        case .failure, .failureWithFeatureTermination: "✗"
        case .cancelled: "⊘"
        }
    }

    /// The mark every dump puts before an action that has not completed yet.
    public static let runningSymbol = "…"

    /// The outcome in the words every dump uses: `success`, `success, feature terminated`, `FAILED: message`,
    /// `FAILED, feature terminated: message` and `cancelled`.
    public var description: String {
        switch self {
        case .success: "success"
        case .successWithFeatureTermination: "success, feature terminated"
        case .failure(let message): "FAILED: \(message)"
        case .failureWithFeatureTermination(let message): "FAILED, feature terminated: \(message)"
        case .cancelled: "cancelled"
        }
    }
}
