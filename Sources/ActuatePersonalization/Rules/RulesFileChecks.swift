/// The checks that look across a parsed rules file: ids, references, ranges and content.
enum RulesFileChecks {
    /// The problems of `rules`; `actionPaths` and `conditionPaths` give each element's JSON path when it is not
    /// `$.actions[index]` (elements the parser could not read are missing from `rules`).
    static func problems(
        in rules: RulesFile,
        actionPaths: [String]? = nil,
        conditionPaths: [String]? = nil
    ) -> [RulesFileProblem] {
        var problems: [RulesFileProblem] = []
        var actionIndex: [Int: String] = [:]
        for (index, action) in rules.actions.enumerated() {
            let path = actionPaths?[index] ?? "$.actions[\(index)]"
            if let first = actionIndex[action.id] {
                problems.append(
                    .init(path: "\(path).id", message: "duplicate action id \(action.id) (first at \(first))")
                )
            } else {
                actionIndex[action.id] = path
            }
            if let type = action.contentType, type.trimmingCharacters(in: .whitespaces).isEmpty {
                problems.append(.init(path: "\(path).contentType", message: "the content type is empty"))
            }
            if action.content.isEmpty {
                problems.append(.init(path: "\(path).content", message: "the content is empty"))
            } else if MediaType.matches(action.contentType, "application/json"), action.contentJsonArray == nil {
                problems.append(
                    .init(
                        path: "\(path).content",
                        message: "the content type is application/json but the content is not a JSON array of "
                            + "objects whose values are all strings"
                    )
                )
            }
        }
        var conditionIndex: [Int: String] = [:]
        for (index, condition) in rules.conditions.enumerated() {
            let path = conditionPaths?[index] ?? "$.conditions[\(index)]"
            if let first = conditionIndex[condition.id] {
                problems.append(
                    .init(path: "\(path).id", message: "duplicate condition id \(condition.id) (first at \(first))")
                )
            } else {
                conditionIndex[condition.id] = path
            }
            for (position, actionID) in condition.actionIDs.enumerated() where actionIndex[actionID] == nil {
                problems.append(.init(path: "\(path).actions[\(position)]", message: "no action has id \(actionID)"))
            }
            if JSONNumberPolicy.percent(condition.controlGroupPercent) == nil {
                problems.append(
                    .init(
                        path: "\(path).controlGroupPercent",
                        message: JSONNumberPolicy.percentProblem(found: condition.controlGroupPercent)
                    )
                )
            }
            problems += targetingProblems(condition.targeting, path: "\(path).targeting")
        }
        return problems
    }

    private static func targetingProblems(_ targeting: RuleTargeting, path: String) -> [RulesFileProblem] {
        var problems: [RulesFileProblem] = []
        if let documents = targeting.documents {
            if documents.isEmpty {
                problems.append(.init(path: "\(path).documents", message: "the list is empty, so nothing matches"))
            }
            for (index, document) in documents.enumerated() where document.isEmpty {
                problems.append(.init(path: "\(path).documents[\(index)]", message: "the document name is empty"))
            }
        }
        if let range = targeting.sessionCount {
            if range.min == nil, range.max == nil {
                problems.append(.init(path: "\(path).sessionCount", message: "give min, max or both"))
            }
            if let min = range.min, let max = range.max, min > max {
                problems.append(.init(path: "\(path).sessionCount", message: "min \(min) is greater than max \(max)"))
            }
            for (name, bound) in [("min", range.min), ("max", range.max)] {
                if let bound, bound < 0 {
                    problems.append(.init(path: "\(path).sessionCount.\(name)", message: "\(bound) is negative"))
                }
            }
        }
        if let userData = targeting.userData {
            for field in userData.keys.sorted() where field.isEmpty {
                problems.append(.init(path: "\(path).userData", message: "a field name is empty"))
            }
        }
        for (name, anyOf) in [
            ("productsSeen", targeting.productsSeen?.anyOf), ("articlesSeen", targeting.articlesSeen?.anyOf),
        ] {
            for (index, id) in (anyOf ?? []).enumerated() where id.isEmpty {
                problems.append(.init(path: "\(path).\(name).anyOf[\(index)]", message: "the id is empty"))
            }
        }
        return problems
    }
}
