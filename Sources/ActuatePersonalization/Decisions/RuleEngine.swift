import Synchronization

/// The compiled rules of a ``LocalDecisionSource``, and what its last evaluation derived from a profile, which
/// the source and its copies share so that the next evaluation reuses it.
final class RuleEngine: Sendable {
    private let rules: CompiledRules
    private let lastEvaluation: Mutex<RuleEvaluation>

    init(_ rules: CompiledRules) {
        self.rules = rules
        lastEvaluation = Mutex(rules.makeEvaluation())
    }

    /// The matched conditions and their actions for `request`.
    func evaluate(_ request: DecisionRequest) -> TrackerResult {
        let reused = lastEvaluation.withLockIfAvailable { evaluation in
            rules.evaluate(request, in: &evaluation)
        }
        if let reused { return reused }
        // Another task is evaluating: start from nothing rather than wait for it.
        var evaluation = rules.makeEvaluation()
        return rules.evaluate(request, in: &evaluation)
    }
}
