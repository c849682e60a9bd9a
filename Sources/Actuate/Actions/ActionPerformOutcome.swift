/// How an action ended, as the action reports it through its completion requirement.
///
/// Every text made from an outcome (the timeline, action stacks, analytics, reporting, diagnostics, debug
/// reports, and `description` itself) goes through one classification, ``summary``, which describes an error
/// by ``Loggable/loggingDescription`` when the error is ``Loggable``, so that an error holding private data
/// can leave it out, and which never prints a ``Redacted`` value.
public enum ActionPerformOutcome: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The action succeeded.
    case success
    /// The action succeeded and the feature's current use is over, which closes its action stack.
    case successWithFeatureTermination
    /// The action failed.
    case failure(error: any Error)
    /// The action failed and the feature's current use is over, which closes its action stack.
    case failureWithFeatureTermination(error: any Error)

    /// The outcome without the feature-termination detail, as callers receive it.
    public var simplifiedOutcome: ActionOutcome {
        switch self {
        case .success, .successWithFeatureTermination: .success
        case .failure(let error), .failureWithFeatureTermination(let error): .failure(error: error)
        }
    }

    /// Whether the action succeeded, with or without ending the feature's current use.
    public var isSuccess: Bool {
        simplifiedOutcome.isSuccess
    }

    /// The error, if the action failed.
    public var error: (any Error)? {
        simplifiedOutcome.error
    }

    /// Whether the outcome ends the feature's current use.
    @inlinable
    public var terminatesFeature: Bool {
        switch self {
        case .successWithFeatureTermination, .failureWithFeatureTermination: true
        case .success, .failure: false
        }
    }

    /// Whether the action failed because it was cancelled.
    public var isCancellation: Bool {
        simplifiedOutcome.isCancellation
    }

    /// The error of a failed action, described for logs and reports: by ``Loggable/loggingDescription`` when the
    /// error is ``Loggable`` (so that it can redact itself), by `String(describing:)` otherwise, in which
    /// ``Redacted`` values print as `<redacted>`; nil on success.
    public var errorDescription: String? {
        simplifiedOutcome.errorDescription
    }

    /// The one classification of the outcome that everything recording or printing it uses.
    ///
    /// Inlinable, so that a plugin in another module classifies a success without a call; a failure's error is
    /// described out of line, when the summary is made.
    @inlinable
    public var summary: TimelineOutcome {
        switch self {
        case .success: .success
        case .successWithFeatureTermination: .successWithFeatureTermination
        case .failure, .failureWithFeatureTermination: TimelineOutcome(self)
        }
    }

    /// The outcome's ``summary`` in words, such as `success` or `failure: card declined`.
    public var description: String {
        switch summary {
        case .success: "success"
        case .successWithFeatureTermination: "success (feature terminated)"
        case .failure(let message): "failure: \(message)"
        case .failureWithFeatureTermination(let message): "failure (feature terminated): \(message)"
        case .cancelled: "cancelled"
        }
    }

    /// The same as ``description``: an outcome never prints its error's private data.
    public var debugDescription: String { description }
}

/// How an action ended, as its caller sees it.
public enum ActionOutcome: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The action succeeded.
    case success
    /// The action failed.
    case failure(error: any Error)

    /// Whether the action succeeded.
    public var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }

    /// The error, if the action failed.
    public var error: (any Error)? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// Whether the action failed because it was cancelled.
    public var isCancellation: Bool {
        error is ActionCancellationError
    }

    /// The error described for logs and reports, as ``ActionPerformOutcome/errorDescription``; nil on success.
    public var errorDescription: String? {
        error.map(ErrorDescription.redacted)
    }

    /// `success`, `cancelled`, or `failure: ` and the ``errorDescription``.
    public var description: String {
        switch self {
        case .success: "success"
        case .failure where isCancellation: "cancelled"
        case .failure(let error): "failure: \(ErrorDescription.redacted(error))"
        }
    }

    /// The same as ``description``: an outcome never prints its error's private data.
    public var debugDescription: String { description }
}

/// The one way Actuate turns an error into text; plugins that report errors use it too.
public enum ErrorDescription {
    /// `error`'s ``Loggable/loggingDescription`` when it is ``Loggable``, its `String(describing:)` otherwise
    /// (in which ``Redacted`` values print as `<redacted>`).
    ///
    /// - Parameter error: The error.
    /// - Returns: The text, without the error's private data.
    public static func redacted(_ error: any Error) -> String {
        (error as? any Loggable)?.loggingDescription ?? String(describing: error)
    }
}

/// The error of an action that was cancelled before or while its body ran.
public struct ActionCancellationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Whether the body had started when the cancellation arrived.
    package var bodyStarted: Bool

    /// Creates the error.
    package init(bodyStarted: Bool) {
        self.bodyStarted = bodyStarted
    }

    public var description: String {
        bodyStarted ? "The action was cancelled while it ran." : "The action was cancelled before it started."
    }
}
