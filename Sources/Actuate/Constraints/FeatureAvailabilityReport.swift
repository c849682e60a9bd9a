/// Why a feature is or is not available, for debugging and for UIs that explain what is missing.
struct FeatureAvailabilityReport: Sendable, Hashable, Codable, CustomStringConvertible {
    /// One constraint and its answer.
    struct ConstraintResult: Sendable, Hashable, Codable {
        /// The constraint, described.
        let constraint: String
        /// Whether it holds; nil while unknown.
        let satisfied: Bool?
    }

    /// The feature's path.
    let path: FeaturePath
    /// Whether the feature was registered with the evaluator.
    let isRegistered: Bool
    /// Whether it is available; nil while unknown.
    let isAvailable: Bool?
    /// Whether its group is available (`true` for a top-level feature); nil while unknown.
    let parentAvailable: Bool?
    /// Each of its own constraints, with its answer.
    let constraints: [ConstraintResult]

    /// The constraints that do not hold.
    var unsatisfied: [String] { constraints.filter { $0.satisfied == false }.map(\.constraint) }

    /// The constraints whose answer is not yet known.
    var undetermined: [String] { constraints.filter { $0.satisfied == nil }.map(\.constraint) }

    var description: String {
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
