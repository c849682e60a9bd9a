import Foundation

/// Decides on the device, from a rules file of content actions and conditions.
///
/// A condition matches when every targeting criterion it sets holds for the visitor: the document navigated
/// to, products and articles seen, user data fields and the session count. A visitor in a condition's control
/// group (stable per visitor: the same visitor always lands in the same group) gets the condition, marked
/// ``TrackerCondition/isControlGroup``, without its actions. Actions of matching conditions come in rules
/// order, each once.
///
/// ```swift
/// let source = try LocalDecisionSource(contentsOf: Bundle.main.url(forResource: "rules", withExtension: "json")!)
/// ```
///
/// Rules are checked and compiled when the source is made: every document, product, article and user data field
/// they name is interned, and rules are combined as bit sets. Evaluation looks each name up once, only in the parts
/// of the profile that changed since the source last evaluated it, so it does not slow down as the visitor's
/// history grows, and repeating it for an unchanged visitor allocates nothing.
public struct LocalDecisionSource: DecisionSource {
    /// The rules the source decides with.
    package let rules: RulesFile
    private let engine: RuleEngine

    /// Each answer is the whole result for the visitor's state.
    public var isIncremental: Bool { false }

    /// Creates a source from rules built in code.
    /// - Parameter rules: The rules.
    /// - Throws: ``RulesFileError`` (file `<rules>`) when ids repeat, a condition names a missing action, or a
    ///   value is out of range.
    package init(rules: RulesFile) throws(RulesFileError) {
        let problems = rules.problems
        guard problems.isEmpty else { throw RulesFileError(file: "<rules>", problems: problems) }
        self.rules = rules
        engine = RuleEngine(CompiledRules(rules))
    }

    /// Creates a source from a rules file.
    /// - Parameter url: The rules file.
    /// - Throws: ``RulesFileError`` naming the file and every problem in it.
    public init(contentsOf url: URL) throws(RulesFileError) {
        try self.init(rules: try RulesFile(contentsOf: url))
    }

    /// Creates a source from rules given as JSON.
    /// - Parameters:
    ///   - data: The JSON.
    ///   - name: What to call it in errors.
    /// - Throws: ``RulesFileError`` naming `name` and every problem.
    public init(data: Data, name: String) throws(RulesFileError) {
        try self.init(rules: try RulesFile(data: data, name: name))
    }

    /// Evaluates the rules for the request's visitor.
    /// - Parameter request: The visitor and their profile.
    /// - Returns: The matched conditions and their actions.
    public func decide(_ request: DecisionRequest) async -> TrackerResult {
        evaluate(request)
    }

    /// Evaluates the rules synchronously.
    /// - Parameter request: The visitor and their profile.
    /// - Returns: The matched conditions and their actions.
    package func evaluate(_ request: DecisionRequest) -> TrackerResult {
        engine.evaluate(request)
    }
}
