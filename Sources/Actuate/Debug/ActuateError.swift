/// Errors with which the dispatcher fails an action that could not run as asked.
public enum ActuateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The feature never declared the action in ``FeatureDefinition/prepare(actions:)``.
    case undeclaredAction(action: String, feature: String)
    /// The body returned a status that belongs to another completion requirement.
    case foreignCompletionStatus(action: String)
    /// The action has no ``Action/defaultSession`` and none was given.
    case missingSession(action: String)
    /// The feature is not available, so a conditional action cannot be performed.
    case featureUnavailable(feature: String)

    public var description: String {
        switch self {
        case .undeclaredAction(let action, let feature):
            "'\(action)' is not declared by feature \(feature). Add `actions.declare(...)` for it in "
                + "\(feature).prepare(actions:)."
        case .foreignCompletionStatus(let action):
            "'\(action)' returned a completion status that belongs to another action's requirement."
        case .missingSession(let action):
            "'\(action)' has no default session; perform it through an ActionSession."
        case .featureUnavailable(let feature):
            "The feature \(feature) is not available."
        }
    }
}
