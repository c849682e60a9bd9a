import Foundation

/// Where Actuate reports programmer errors: completing twice, a foreign status, an action that never
/// completes, an undeclared action, and failures inside plugins.
///
/// Actuate never crashes on misuse. Each dispatcher reports to its own handler, so tests observe misuse with
/// `ActuateTesting.RecordingDiagnostics` and never touch process-wide state.
public protocol ActuateDiagnostics: Sendable {
    /// Reports one problem.
    func report(_ diagnostic: ActuateDiagnostic)
}

/// One programmer error or plugin failure.
public struct ActuateDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of problem.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A completion requirement was completed more than once.
        case completedTwice
        /// A body returned a status that belongs to another requirement.
        case foreignCompletionStatus
        /// An action has not completed within the dispatcher's completion timeout.
        case neverCompleted
        /// An action was performed through a feature that never declared it.
        case undeclaredAction
        /// An action was performed with no session to run in.
        case missingSession
        /// A plugin failed; the action itself was not affected.
        case pluginFailure
    }

    /// What went wrong.
    public let kind: Kind
    /// The action's display name.
    public let actionName: String
    /// The feature's identifier; empty when the action could not be tied to a feature.
    public let featurePath: FeaturePath
    /// The session's name.
    public let sessionName: String
    /// A sentence saying what happened and how to fix it.
    public let message: String
    /// The ``ActionRequest/uniqueID`` of the request it is about, when it is about one.
    public let requestID: UInt64?

    /// Creates a diagnostic.
    ///
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - actionName: The action's display name.
    ///   - featurePath: The feature's identifier.
    ///   - sessionName: The session's name.
    ///   - message: A sentence saying what happened and how to fix it.
    ///   - requestID: The ``ActionRequest/uniqueID`` of the request it is about, if any.
    public init(
        kind: Kind,
        actionName: String,
        featurePath: FeaturePath,
        sessionName: String,
        message: String,
        requestID: UInt64? = nil
    ) {
        self.kind = kind
        self.actionName = actionName
        self.featurePath = featurePath
        self.sessionName = sessionName
        self.message = message
        self.requestID = requestID
    }

    public var description: String {
        let request = requestID.map { " #\($0)" } ?? ""
        return
            "[Actuate \(kind.rawValue)] \(featurePath) › \(actionName)\(request) in session '\(sessionName)': \(message)"
    }
}

/// The default diagnostics handler: writes each diagnostic to standard error.
public struct StandardErrorDiagnostics: ActuateDiagnostics {
    /// Creates the handler.
    public init() {}

    public func report(_ diagnostic: ActuateDiagnostic) {
        FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
    }
}
