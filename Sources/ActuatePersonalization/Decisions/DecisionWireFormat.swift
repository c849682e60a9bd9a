import ActuateReporting
import Foundation

/// The JSON an ``HTTPDecisionSource`` posts, and reads back.
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

    struct Response: Decodable {
        var conditions: [TrackerCondition]?
        var actions: [ContentAction]
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

    /// Reads a response body, or says exactly what is wrong with it.
    package static func decode(_ data: Data) throws(DecisionSourceError) -> TrackerResult {
        guard !data.isEmpty else { throw .malformedResponse(reason: "the body is empty") }
        try checkNumbers(in: data)
        let response: Response
        do {
            response = try JSONDecoder().decode(Response.self, from: data)
        } catch let error as DecodingError {
            throw .malformedResponse(reason: describe(error, data: data))
        } catch {
            throw .malformedResponse(reason: String(describing: error))
        }
        var seen = Set<Int>()
        for (index, action) in response.actions.enumerated() where !seen.insert(action.id).inserted {
            throw .malformedResponse(reason: "$.actions[\(index)].id: duplicate action id \(action.id)")
        }
        return TrackerResult(conditions: response.conditions ?? [], actions: response.actions)
    }

    /// Range-checks the ids of a response before the decoder converts them, so that an id it would refuse
    /// (`1e300`, `0.5`) or take past the number policy (`1e16`) is refused at its path, naming the range.
    private static func checkNumbers(in data: Data) throws(DecisionSourceError) {
        guard case .object(let root)? = try? JSONDecoder().decode(JSONValue.self, from: data) else { return }
        for key in ["conditions", "actions"] {
            guard case .array(let elements)? = root[key] else { continue }
            for (index, element) in elements.enumerated() {
                guard case .object(let object) = element, case .number(let id)? = object["id"],
                    JSONNumberPolicy.wholeNumber(id) == nil
                else { continue }
                throw .malformedResponse(
                    reason: "$.\(key)[\(index)].id: " + JSONNumberPolicy.wholeNumberProblem(found: id)
                )
            }
        }
    }

    private static func describe(_ error: DecodingError, data: Data) -> String {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not valid JSON (\(data.count) bytes, perhaps cut short): "
                + RulesDocumentReader.reason(error, in: data)
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(type), found null"
        @unknown default:
            return String(describing: error)
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce("$") { path, key in
            if let index = key.intValue { return "\(path)[\(index)]" }
            return "\(path).\(key.stringValue)"
        }
    }
}
