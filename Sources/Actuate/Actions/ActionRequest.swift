import Foundation

/// One request to perform action `A` of feature `F`, as plugins see it.
public struct ActionRequest<F: FeatureDefinition, A: Action>: Sendable {
    /// The context the body receives.
    public let context: ActionContext<A.InputType>
    /// A process-unique identifier; requests of one dispatcher get increasing ids.
    public let uniqueID: UInt64
    /// When the request was made, on the dispatcher's clock.
    public let date: Date
    /// The feature's metadata.
    public let feature: FeatureMetadata
    /// The action's metadata.
    public let action: ActionMetadata

    /// Whether the user asked for this directly.
    public var userInitiated: Bool { context.userInitiated }

    /// The name of the session the request runs in.
    public var sessionName: String { context.session }

    /// A type-erased summary, for plugins that store requests.
    public var summary: ActionRequestSummary {
        ActionRequestSummary(
            uniqueID: uniqueID,
            actionName: action.name,
            featureName: feature.name,
            featurePath: feature.path,
            sessionName: context.session,
            inputDescription: context.input.loggingDescription,
            userInitiated: context.userInitiated,
            source: context.source,
            date: date
        )
    }
}

/// A type-erased description of one action request.
public struct ActionRequestSummary: Sendable, Hashable, Codable {
    /// The request's unique identifier.
    public var uniqueID: UInt64
    /// The action's display name.
    public var actionName: String
    /// The feature's display name.
    public var featureName: String
    /// The feature's identifier.
    public var featurePath: FeaturePath
    /// The session the request ran in.
    public var sessionName: String
    /// The input's ``Loggable/loggingDescription``.
    public var inputDescription: String
    /// Whether the user asked for this directly.
    public var userInitiated: Bool
    /// Where the request came from.
    public var source: ActionSource
    /// When the request was made.
    public var date: Date

    /// Creates a summary.
    public init(
        uniqueID: UInt64,
        actionName: String,
        featureName: String,
        featurePath: FeaturePath,
        sessionName: String,
        inputDescription: String,
        userInitiated: Bool,
        source: ActionSource,
        date: Date
    ) {
        self.uniqueID = uniqueID
        self.actionName = actionName
        self.featureName = featureName
        self.featurePath = featurePath
        self.sessionName = sessionName
        self.inputDescription = inputDescription
        self.userInitiated = userInitiated
        self.source = source
        self.date = date
    }
}
