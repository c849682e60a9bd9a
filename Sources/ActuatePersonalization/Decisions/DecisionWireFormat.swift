import Foundation

/// The JSON an ``HTTPDecisionSource`` posts, and reads back.
///
/// Request: `{"visitorId": "…", "userId": "…", "sessionCount": 3, "commands": [BehaviourCommand…]}`.
/// Response: `{"conditions": [{"id": 1, "name": "…", "isControlGroup": false}], "actions": [{"id": 7, "name":
/// "…", "contentType": "text/html", "content": "…"}]}`; `conditions` may be left out.
enum DecisionWireFormat {
    struct Request: Encodable {
        var visitorId: String
        var userId: String?
        var sessionCount: Int
        var commands: [BehaviourCommand]
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
                visitorId: request.visitorId,
                userId: request.userId,
                sessionCount: request.sessionCount,
                commands: request.commands
            )
        )
    }

    /// Reads a response body, or says exactly what is wrong with it.
    static func decode(_ data: Data) throws(DecisionSourceError) -> TrackerResult {
        guard !data.isEmpty else { throw .malformedResponse(reason: "the body is empty") }
        let response: Response
        do {
            response = try JSONDecoder().decode(Response.self, from: data)
        } catch let error as DecodingError {
            throw .malformedResponse(reason: describe(error, data: data))
        } catch {
            throw .malformedResponse(reason: String(describing: error))
        }
        // The decoder takes any id that fits an Int; the number policy of every document allows ±(2^53 − 1).
        for (index, condition) in (response.conditions ?? []).enumerated()
        where !JSONNumberPolicy.wholeNumbers.contains(condition.id) {
            throw .malformedResponse(
                reason: "$.conditions[\(index)].id: "
                    + JSONNumberPolicy.wholeNumberProblem(found: Double(condition.id))
            )
        }
        for (index, action) in response.actions.enumerated() where !JSONNumberPolicy.wholeNumbers.contains(action.id) {
            throw .malformedResponse(
                reason: "$.actions[\(index)].id: " + JSONNumberPolicy.wholeNumberProblem(found: Double(action.id))
            )
        }
        var seen = Set<Int>()
        for (index, action) in response.actions.enumerated() where !seen.insert(action.id).inserted {
            throw .malformedResponse(reason: "$.actions[\(index)].id: duplicate action id \(action.id)")
        }
        return TrackerResult(conditions: response.conditions ?? [], actions: response.actions)
    }

    private static func describe(_ error: DecodingError, data: Data) -> String {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not valid JSON (\(data.count) bytes, perhaps cut short): "
                + RulesFileParser.reason(error, in: data)
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
