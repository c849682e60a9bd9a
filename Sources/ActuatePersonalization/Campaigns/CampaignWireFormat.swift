import ActuateReporting
import Foundation

/// The JSON an ``HTTPCampaignSource`` posts, and reads back; the article "Serving campaigns" documents every
/// field.
///
/// Request: `{"anonymousId": "…", "userId": "…", "context": "Product", "trigger": {"kind": "addToCart",
/// "itemType": "Product", "itemIds": ["sku-1"]}, "properties": {…}}`.
/// Response: `{"campaigns": [{"target": "…", "campaignId": "…", "isControlGroup": false, …}]}`.
enum CampaignWireFormat {
    static func encode(_ request: CampaignRequest) throws -> Data {
        var body: [String: JSONValue] = [
            "context": .string(request.contextName),
            "trigger": trigger(request.trigger),
            "properties": .object(request.properties),
        ]
        if let identity = request.identity {
            body["anonymousId"] = .string(identity.anonymousID)
            if let userID = identity.userID { body["userId"] = .string(userID) }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(JSONValue.object(body))
    }

    /// The trigger as `{"kind": "action", "name": …}` or `{"kind": …, "itemType": …, "itemIds": […]}`.
    static func trigger(_ trigger: CampaignTrigger) -> JSONValue {
        switch trigger {
        case .action(let name):
            return ["kind": "action", "name": .string(name)]
        case .itemView(let type, let id):
            return ["kind": "itemView", "itemType": .string(type.rawValue), "itemIds": [.string(id)]]
        case .interaction(let interaction, let type, let ids):
            return [
                "kind": .string(interaction.rawValue), "itemType": .string(type.rawValue),
                "itemIds": .array(ids.map(JSONValue.string)),
            ]
        }
    }

    /// Reads a response body, or says exactly what is wrong with it: every problem, with its JSON path, separated
    /// by ` | `.
    static func decode(_ data: Data) throws(CampaignSourceError) -> [Campaign] {
        guard !data.isEmpty else { throw .malformedResponse(reason: "the body is empty") }
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw .malformedResponse(
                reason: "not valid JSON (\(data.count) bytes, perhaps cut short): "
                    + RulesDocumentReader.reason(error, in: data)
            )
        }
        var reader = Reader()
        let campaigns = reader.campaigns(in: root)
        guard reader.problems.isEmpty else {
            throw .malformedResponse(reason: reader.problems.map(\.description).joined(separator: " | "))
        }
        return campaigns
    }

    /// Reads the campaigns of a decoded response, collecting every problem with its JSON path.
    struct Reader {
        private(set) var problems: [RulesFileProblem] = []

        mutating func campaigns(in root: JSONValue) -> [Campaign] {
            guard case .object(let object) = root else {
                report("$", "expected an object, found \(RulesDocumentReader.kind(root))")
                return []
            }
            guard let list = object["campaigns"] else {
                report("$.campaigns", "missing; expected an array (empty when the event earns nothing)")
                return []
            }
            guard case .array(let elements) = list else {
                report("$.campaigns", "expected an array, found \(RulesDocumentReader.kind(list))")
                return []
            }
            return elements.enumerated().compactMap { campaign($0.element, at: "$.campaigns[\($0.offset)]") }
        }

        private mutating func campaign(_ value: JSONValue, at path: String) -> Campaign? {
            guard case .object(let object) = value else {
                report(path, "expected an object, found \(RulesDocumentReader.kind(value))")
                return nil
            }
            let before = problems.count
            let target = text(object["target"], at: "\(path).target", required: true)
            let campaignID = identifier(object["campaignId"], at: "\(path).campaignId", required: true)
            let campaignName = text(object["campaignName"], at: "\(path).campaignName")
            let experienceID = identifier(object["experienceId"], at: "\(path).experienceId")
            let experienceName = text(object["experienceName"], at: "\(path).experienceName")
            let messageID = identifier(object["messageId"], at: "\(path).messageId")
            var promoted: [String] = []
            switch object["promotedItemKeys"] {
            case nil, .null?: break
            case .array(let keys)?:
                promoted = keys.enumerated().compactMap {
                    text($0.element, at: "\(path).promotedItemKeys[\($0.offset)]", required: true)
                }
            case let other?:
                report(
                    "\(path).promotedItemKeys",
                    "expected an array of strings, found \(RulesDocumentReader.kind(other))"
                )
            }
            var data: [String: JSONValue] = [:]
            switch object["data"] {
            case nil, .null?: break
            case .object(let payload)?: data = payload
            case let other?: report("\(path).data", "expected an object, found \(RulesDocumentReader.kind(other))")
            }
            var isControlGroup = false
            switch object["isControlGroup"] {
            case .bool(let flag)?: isControlGroup = flag
            case nil:
                report(
                    "\(path).isControlGroup",
                    "missing; expected true or false, the server's test or control assignment for this user"
                )
            case let other?:
                report("\(path).isControlGroup", "expected true or false, found \(RulesDocumentReader.kind(other))")
            }
            guard problems.count == before, let target, let campaignID else { return nil }
            return Campaign(
                target: target,
                campaignID: campaignID,
                campaignName: campaignName,
                experienceID: experienceID,
                experienceName: experienceName,
                messageID: messageID,
                promotedItemKeys: promoted,
                data: data,
                isControlGroup: isControlGroup
            )
        }

        /// An id: a non-empty string, or a whole number within the number policy's range, as its digits.
        private mutating func identifier(_ value: JSONValue?, at path: String, required: Bool = false) -> String? {
            guard case .number(let number)? = value else { return text(value, at: path, required: required) }
            guard let whole = JSONNumberPolicy.wholeNumber(number) else {
                // "expected a whole number …, found …" becomes "expected a non-empty string or a whole number …".
                let problem = JSONNumberPolicy.wholeNumberProblem(found: number)
                report(path, "expected a non-empty string or " + problem.dropFirst("expected ".count))
                return nil
            }
            return String(whole)
        }

        /// A non-empty string; absent or null is nil, and reported only when required.
        private mutating func text(_ value: JSONValue?, at path: String, required: Bool = false) -> String? {
            switch value {
            case nil, .null?:
                if required { report(path, "missing; expected a non-empty string") }
                return nil
            case .string(let text)?:
                guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                    report(path, "must not be empty")
                    return nil
                }
                return text
            case let other?:
                report(path, "expected a non-empty string, found \(RulesDocumentReader.kind(other))")
                return nil
            }
        }

        private mutating func report(_ path: String, _ message: String) {
            problems.append(RulesFileProblem(path: path, message: message))
        }
    }
}
