import ActuateReporting
import Foundation

/// Reads a rules file's JSON into a ``RulesFile``, collecting every problem with its JSON path instead of
/// stopping at the first.
struct RulesFileParser {
    private var reader = RulesDocumentReader()
    /// The problems found, in document order.
    private(set) var problems: [RulesFileProblem] = []

    /// The keys a rules file may hold at its root; `campaigns` and `contentBlocks` belong to their own parsers.
    static let rootKeys = ["$schema", "version", "actions", "conditions"] + RulesFile.otherPartsKeys.sorted()
    static let conditionKeys = ["id", "name", "actions", "controlGroupPercent", "targeting"]
    static let targetingKeys = ["documents", "productsSeen", "articlesSeen", "userData", "sessionCount"]
    static let sessionCountKeys = ["min", "max"]
    static let seenKeys = ["event", "anyOf", "minCount"]

    /// The parsed rules, or nil when the JSON is not an object at all; check ``problems`` either way.
    mutating func parse(_ data: Data) -> RulesFile? {
        let rules = reader.root(of: data).flatMap { parse($0) }
        problems = reader.problems.sorted { RulesDocumentReader.documentOrder($0.path, $1.path) }
        return rules
    }

    private mutating func parse(_ root: JSONValue) -> RulesFile? {
        guard let object = reader.object(root, at: "$", keys: Self.rootKeys) else { return nil }
        if let schema = object["$schema"] {
            _ = reader.string(schema, at: "$.$schema")
        }
        if let version = object["version"], reader.wholeNumber(version, at: "$.version") != 1,
            version.numberValue != nil
        {
            reader.report("$.version", "unsupported version; this reader understands version 1")
        }
        var actions: [ContentAction] = []
        var actionPaths: [String] = []
        for (index, element) in (reader.array(object["actions"], at: "$.actions") ?? []).enumerated() {
            let path = "$.actions[\(index)]"
            if let action = parseAction(element, at: path) {
                actions.append(action)
                actionPaths.append(path)
            }
        }
        var conditions: [RuleCondition] = []
        var conditionPaths: [String] = []
        for (index, element) in (reader.array(object["conditions"], at: "$.conditions") ?? []).enumerated() {
            let path = "$.conditions[\(index)]"
            if let condition = parseCondition(element, at: path) {
                conditions.append(condition)
                conditionPaths.append(path)
            }
        }
        let rules = RulesFile(actions: actions, conditions: conditions)
        // Elements with a readable id are kept even when other fields are wrong, so references to them stay
        // valid; a cross check at a path already reported would only repeat the problem.
        let reported = Set(reader.problems.map(\.path))
        for problem in RulesFileChecks.problems(in: rules, actionPaths: actionPaths, conditionPaths: conditionPaths)
        where !reported.contains(problem.path) {
            reader.report(problem.path, problem.message)
        }
        return rules
    }

    // MARK: Elements

    private mutating func parseAction(_ value: JSONValue, at path: String) -> ContentAction? {
        reader.contentAction(value, at: path, strictKeys: true)
    }

    private mutating func parseCondition(_ value: JSONValue, at path: String) -> RuleCondition? {
        guard let object = reader.object(value, at: path, keys: Self.conditionKeys) else { return nil }
        let id = reader.wholeNumber(object["id"], at: "\(path).id", required: true)
        let name = reader.string(object["name"], at: "\(path).name")
        let actionIDs = (reader.array(object["actions"], at: "\(path).actions", required: true) ?? [])
            .enumerated().compactMap {
                reader.wholeNumber($0.element, at: "\(path).actions[\($0.offset)]", required: true)
            }
        let percent = object["controlGroupPercent"].flatMap {
            reader.percent($0, at: "\(path).controlGroupPercent")
        }
        let targeting = object["targeting"].map { parseTargeting($0, at: "\(path).targeting") } ?? .everyone
        guard let id else { return nil }
        return RuleCondition(
            id: id,
            name: name,
            actionIDs: actionIDs,
            controlGroupPercent: percent ?? 0,
            targeting: targeting
        )
    }

    private mutating func parseTargeting(_ value: JSONValue, at path: String) -> RuleTargeting {
        guard let object = reader.object(value, at: path, keys: Self.targetingKeys) else { return .everyone }
        var targeting = RuleTargeting()
        if object["documents"] != nil {
            let documents = reader.array(object["documents"], at: "\(path).documents", required: true) ?? []
            targeting.documents = reader.strings(documents, at: "\(path).documents")
        }
        if let raw = object["productsSeen"] {
            targeting.productsSeen = parseSeen(raw, at: "\(path).productsSeen", as: ProductList.self)
        }
        if let raw = object["articlesSeen"] {
            targeting.articlesSeen = parseSeen(raw, at: "\(path).articlesSeen", as: ArticleList.self)
        }
        if let raw = object["userData"], let fields = reader.object(raw, at: "\(path).userData") {
            var userData: [String: String] = [:]
            for key in fields.keys.sorted() {
                let fieldPath = RulesDocumentReader.path("\(path).userData", key)
                if let text = reader.string(fields[key], at: fieldPath, required: true) {
                    userData[key] = text
                }
            }
            targeting.userData = userData
        }
        if let raw = object["sessionCount"],
            let range = reader.object(raw, at: "\(path).sessionCount", keys: Self.sessionCountKeys)
        {
            targeting.sessionCount = SessionCountRule(
                min: reader.wholeNumber(range["min"], at: "\(path).sessionCount.min"),
                max: reader.wholeNumber(range["max"], at: "\(path).sessionCount.max")
            )
        }
        return targeting
    }

    private mutating func parseSeen<List: ItemList>(
        _ value: JSONValue,
        at path: String,
        as: List.Type
    ) -> SeenItemsRule<List>? {
        guard let object = reader.object(value, at: path, keys: Self.seenKeys) else { return nil }
        var list = List.allCases.first { $0.rawValue == "viewed" } ?? List.allCases.first!
        if let raw = object["event"],
            let name = reader.choice(raw, at: "\(path).event", named: "event", among: List.allCases.map(\.rawValue)),
            let match = List(rawValue: name)
        {
            list = match
        }
        let anyOf = reader.strings(reader.array(object["anyOf"], at: "\(path).anyOf") ?? [], at: "\(path).anyOf")
        let minCount = reader.wholeNumber(object["minCount"], at: "\(path).minCount", in: 1...Int.max) ?? 1
        return SeenItemsRule(list: list, anyOf: anyOf, minCount: minCount)
    }
}
