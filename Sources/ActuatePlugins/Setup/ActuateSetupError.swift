import ActuateCore

/// Why ``ActuateSystem/setup(group:dispatching:configuration:)`` could not build a system; nothing is installed then.
public enum ActuateSetupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Two feature types of the group would have the same path.
    case featurePathClash(FeaturePathClash)
    /// Features declared routes that could not be registered.
    case malformedRoutes(URLRouteMappingError)

    public var description: String {
        switch self {
        case .featurePathClash(let clash): clash.description
        case .malformedRoutes(let error): error.description
        }
    }
}
