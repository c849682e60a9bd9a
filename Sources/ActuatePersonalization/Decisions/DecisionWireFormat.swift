import ActuateReporting
import Foundation

/// The JSON an ``HTTPDecisionSource`` posts, and reads back with the rules reader (``RulesDocumentReader``).
///
/// Request: `{"visitorId": "…", "userId": "…", "sessionCount": 3, "commands": [BehaviourCommand…]}`.
/// Response: `{"conditions": [{"id": 1, "name": "…", "isControlGroup": false}], "actions": [{"id": 7, "name":
/// "…", "contentType": "text/html", "content": "…"}]}`; `conditions` may be left out.
package enum DecisionWireFormat {
    struct Request: Encodable {
        var visitorID: String
        var userID: String?
        var sessionCount: Int
        var commands: [BehaviourCommand]

        private enum CodingKeys: String, CodingKey {
            case visitorID = "visitorId"
            case userID = "userId"
            case sessionCount
            case commands
        }
    }

    static func encode(_ request: DecisionRequest) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(
            Request(
                visitorID: request.visitorID,
                userID: request.userID,
                sessionCount: request.sessionCount,
                commands: request.commands
            )
        )
    }

    /// What a decision answer is called in its ``RulesFileError``.
    package static let answerName = "the decision server's answer"

    /// Reads an answer body with the rules reader, or says exactly what is wrong with it.
    ///
    /// Its content actions go through ``RulesDocumentReader/contentAction(_:at:strictKeys:)`` and the rules
    /// file's cross checks on actions, so an answer is held to what a rules file is held to (the same required
    /// fields, number policy, paths and words), except that a server may add keys of its own.
    /// - Parameter data: The body.
    /// - Returns: The conditions and actions of the answer.
    /// - Throws: ``DecisionSourceError/invalidResponse(_:)`` with every problem and its JSON path.
    package static func decode(_ data: Data) throws(DecisionSourceError) -> TrackerResult {
        var reader = RulesDocumentReader()
        var conditions: [TrackerCondition] = []
        var actions: [ContentAction] = []
        var actionPaths: [String] = []
        if let root = reader.root(of: data), let object = reader.object(root, at: "$") {
            for (index, element) in (reader.array(object["conditions"], at: "$.conditions") ?? []).enumerated() {
                if let condition = condition(element, at: "$.conditions[\(index)]", reader: &reader) {
                    conditions.append(condition)
                }
            }
            let elements = reader.array(object["actions"], at: "$.actions", required: true) ?? []
            for (index, element) in elements.enumerated() {
                let path = "$.actions[\(index)]"
                if let action = reader.contentAction(element, at: path, strictKeys: false) {
                    actions.append(action)
                    actionPaths.append(path)
                }
            }
            let reported = Set(reader.problems.map(\.path))
            let checks = RulesFileChecks.problems(
                in: RulesFile(actions: actions, conditions: []),
                actionPaths: actionPaths
            )
            for problem in checks where !reported.contains(problem.path) {
                reader.report(problem.path, problem.message)
            }
        }
        guard reader.problems.isEmpty else {
            let problems = reader.problems.sorted { RulesDocumentReader.documentOrder($0.path, $1.path) }
            throw .invalidResponse(RulesFileError(file: answerName, problems: problems))
        }
        return TrackerResult(conditions: conditions, actions: actions)
    }

    /// A condition the visitor matched: `id` a whole number (required), `name` a string, `isControlGroup` true or
    /// false (false when absent).
    private static func condition(
        _ value: JSONValue,
        at path: String,
        reader: inout RulesDocumentReader
    ) -> TrackerCondition? {
        guard let object = reader.object(value, at: path) else { return nil }
        let id = reader.wholeNumber(object["id"], at: "\(path).id", required: true)
        let name = reader.string(object["name"], at: "\(path).name")
        let isControlGroup = object["isControlGroup"].flatMap { reader.bool($0, at: "\(path).isControlGroup") }
        guard let id else { return nil }
        return TrackerCondition(id: id, name: name, isControlGroup: isControlGroup ?? false)
    }
}
