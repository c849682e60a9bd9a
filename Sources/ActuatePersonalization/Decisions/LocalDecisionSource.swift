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
/// Rules are checked when the source is made; evaluation uses set lookups only, so it does not slow down as
/// the visitor's history grows.
public struct LocalDecisionSource: DecisionSource {
    /// A condition with its actions looked up and its document patterns split once.
    private struct Compiled: Sendable {
        var condition: TrackerCondition
        var controlGroupPercent: Double
        var actions: [ContentAction]
        var exactDocuments: Set<String>?
        var documentPrefixes: [String]
        var targeting: RuleTargeting
    }

    /// The rules the source decides with.
    public let rules: RulesFile
    private let compiled: [Compiled]

    /// Each answer is the whole result for the visitor's state.
    public var isIncremental: Bool { false }

    /// Creates a source from rules built in code.
    /// - Parameter rules: The rules.
    /// - Throws: ``RulesFileError`` (file `<rules>`) when ids repeat, a condition names a missing action, or a
    ///   value is out of range.
    public init(rules: RulesFile) throws(RulesFileError) {
        let problems = rules.problems
        guard problems.isEmpty else { throw RulesFileError(file: "<rules>", problems: problems) }
        self.rules = rules
        let actionsById = Dictionary(rules.actions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        compiled = rules.conditions.map { condition in
            let documents = condition.targeting.documents
            return Compiled(
                condition: TrackerCondition(id: condition.id, name: condition.name),
                controlGroupPercent: condition.controlGroupPercent,
                actions: condition.actionIds.compactMap { actionsById[$0] },
                exactDocuments: documents.map { Set($0.filter { !$0.hasSuffix("*") }) },
                documentPrefixes: documents?.filter { $0.hasSuffix("*") }.map { String($0.dropLast()) } ?? [],
                targeting: condition.targeting
            )
        }
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
    public func evaluate(_ request: DecisionRequest) -> TrackerResult {
        var result = TrackerResult()
        var included = Set<Int>()
        for entry in compiled where matches(entry, request) {
            var condition = entry.condition
            if ControlGroup.contains(
                visitorId: request.visitorId,
                conditionId: condition.id,
                percent: entry.controlGroupPercent
            ) {
                condition.isControlGroup = true
                result.conditions.append(condition)
                continue
            }
            result.conditions.append(condition)
            for action in entry.actions where included.insert(action.id).inserted {
                result.actions.append(action)
            }
        }
        return result
    }

    private func matches(_ entry: Compiled, _ request: DecisionRequest) -> Bool {
        let targeting = entry.targeting
        let profile = request.profile
        if let range = targeting.sessionCount, !range.contains(request.sessionCount) { return false }
        if let exact = entry.exactDocuments {
            guard let document = profile.currentDocument else { return false }
            if !exact.contains(document), !entry.documentPrefixes.contains(where: document.hasPrefix) { return false }
        }
        if let rule = targeting.productsSeen, !Self.matches(rule, profile) { return false }
        if let rule = targeting.articlesSeen, !Self.matches(rule, profile) { return false }
        if let fields = targeting.userData {
            for (field, expected) in fields {
                guard let value = profile.userData[field], expected == "*" || value == expected else { return false }
            }
        }
        return true
    }

    private static func matches<List: ItemList>(_ rule: SeenItemsRule<List>, _ profile: VisitorProfile) -> Bool {
        let items = rule.list.items(in: profile)
        guard !rule.anyOf.isEmpty else { return items.count >= rule.minCount }
        var found = 0
        for id in rule.anyOf where items.contains(id) {
            found += 1
            if found >= rule.minCount { return true }
        }
        return false
    }
}
