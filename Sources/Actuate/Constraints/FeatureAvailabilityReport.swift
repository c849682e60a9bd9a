/// Why a feature is or is not available, for debugging and for UIs that explain what is missing.
public struct FeatureAvailabilityReport: Sendable, Hashable, Codable, CustomStringConvertible {
    /// One constraint and its answer.
    public struct ConstraintResult: Sendable, Hashable, Codable {
        /// The constraint, described.
        public let constraint: String
        /// Whether it holds; nil while unknown.
        public let satisfied: Bool?
    }

    /// The feature's path.
    public let path: FeaturePath
    /// Whether the feature was registered with the evaluator.
    public let isRegistered: Bool
    /// Whether it is available; nil while unknown.
    public let isAvailable: Bool?
    /// Whether its group is available (`true` for a top-level feature); nil while unknown.
    public let parentAvailable: Bool?
    /// Each of its own constraints, with its answer.
    public let constraints: [ConstraintResult]

    /// The constraints that do not hold.
    public var unsatisfied: [String] { constraints.filter { $0.satisfied == false }.map(\.constraint) }

    /// The constraints whose answer is not yet known.
    public var undetermined: [String] { constraints.filter { $0.satisfied == nil }.map(\.constraint) }

    public var description: String {
        let state =
            switch isAvailable {
            case true: "available"
            case false: "unavailable"
            case nil: "unknown"
            }
        var text = "\(path): \(state)"
        if !isRegistered { text += " (not registered)" }
        if parentAvailable == false { text += " (group unavailable)" }
        if !unsatisfied.isEmpty { text += "; unsatisfied: " + unsatisfied.joined(separator: ", ") }
        if !undetermined.isEmpty { text += "; unknown: " + undetermined.joined(separator: ", ") }
        return text
    }
}
