import ActuateReporting
import Foundation

/// Reads the `campaigns` array of a rules file, collecting every problem with its JSON path instead of
/// stopping at the first.
struct CampaignRulesParser {
    private(set) var problems: [RulesFileProblem] = []

    private static let campaignKeys = [
        "campaignId", "campaignName", "experienceId", "experienceName", "messageId", "target", "promotedItemKeys",
        "data", "isControlGroup", "controlGroupPercent", "trigger",
    ]
    private static let eventKeys = ["action", "itemView"] + ItemInteraction.allCases.map(\.rawValue)
    private static let triggerKeys = eventKeys + ["context"]
    private static let itemViewKeys = ["type", "id"]

    /// The rules that could be read; check ``problems`` either way.
    mutating func parse(_ data: Data) -> [CampaignRule] {
        do {
            return parse(try JSONDecoder().decode(JSONValue.self, from: data))
        } catch {
            report("$", "not valid JSON: \(Self.reason(error))")
            return []
        }
    }

    /// The rules that could be read from a decoded file; check ``problems`` either way.
    mutating func parse(_ root: JSONValue) -> [CampaignRule] {
        guard case .object(let object) = root else {
            report("$", "expected an object, found \(Self.kind(root))")
            return []
        }
        guard let campaigns = object["campaigns"] else { return [] }
        guard case .array(let elements) = campaigns else {
            report("$.campaigns", "expected an array, found \(Self.kind(campaigns))")
            return []
        }
        return elements.enumerated().compactMap { parseCampaign($0.element, at: "$.campaigns[\($0.offset)]") }
    }

    // MARK: Elements

    private mutating func parseCampaign(_ value: JSONValue, at path: String) -> CampaignRule? {
        guard let object = object(value, at: path) else { return nil }
        allowKeys(object, Self.campaignKeys, at: path)
        let campaignId = string(object["campaignId"], at: "\(path).campaignId", required: true)
        let campaignName = string(object["campaignName"], at: "\(path).campaignName")
        let experienceId = string(object["experienceId"], at: "\(path).experienceId")
        let experienceName = string(object["experienceName"], at: "\(path).experienceName")
        let messageId = string(object["messageId"], at: "\(path).messageId")
        let target = string(object["target"], at: "\(path).target", required: true)
        var promoted: [String] = []
        if let raw = object["promotedItemKeys"] {
            if case .array(let keys) = raw {
                promoted = keys.enumerated().compactMap {
                    string($0.element, at: "\(path).promotedItemKeys[\($0.offset)]", required: true)
                }
            } else {
                report("\(path).promotedItemKeys", "expected an array of strings, found \(Self.kind(raw))")
            }
        }
        var data: [String: JSONValue] = [:]
        if let raw = object["data"], let payload = self.object(raw, at: "\(path).data") {
            data = payload
        }
        var isControlGroup = false
        if let raw = object["isControlGroup"] {
            if case .bool(let flag) = raw {
                isControlGroup = flag
            } else {
                report("\(path).isControlGroup", "expected true or false, found \(Self.kind(raw))")
            }
        }
        let controlGroupPercent = parseControlGroupPercent(object, isControlGroup: isControlGroup, at: path)
        let trigger = parseTrigger(object["trigger"], at: "\(path).trigger")
        guard let campaignId, let target, let trigger, let controlGroupPercent else { return nil }
        let campaign = Campaign(
            target: target,
            campaignId: campaignId,
            campaignName: campaignName,
            experienceId: experienceId,
            experienceName: experienceName,
            messageId: messageId,
            promotedItemKeys: promoted,
            data: data,
            isControlGroup: isControlGroup
        )
        return CampaignRule(campaign: campaign, trigger: trigger, controlGroupPercent: controlGroupPercent)
    }

    /// The share of users in the campaign's control group: 0 when absent, nil after reporting a value that is
    /// not a number from 0 to 100 or that contradicts `isControlGroup: true`.
    private mutating func parseControlGroupPercent(
        _ object: [String: JSONValue],
        isControlGroup: Bool,
        at path: String
    ) -> Double? {
        guard let raw = object["controlGroupPercent"] else { return 0 }
        let percentPath = "\(path).controlGroupPercent"
        guard let number = raw.numberValue else {
            report(percentPath, "expected a number from 0 to 100, found \(Self.kind(raw))")
            return nil
        }
        guard let percent = JSONNumberPolicy.percent(number) else {
            report(percentPath, JSONNumberPolicy.percentProblem(found: number))
            return nil
        }
        guard !isControlGroup else {
            report(
                percentPath,
                "not allowed with \"isControlGroup\": true, which holds every user back; keep one of the two"
            )
            return nil
        }
        return percent
    }

    private mutating func parseTrigger(_ value: JSONValue?, at path: String) -> CampaignTriggerRule? {
        guard let value else {
            report(path, "missing; a campaign needs a trigger, such as {\"action\": \"Add to Cart\"}")
            return nil
        }
        guard let object = object(value, at: path) else { return nil }
        allowKeys(object, Self.triggerKeys, at: path)
        let contextName = string(object["context"], at: "\(path).context")
        let events = Self.eventKeys.filter { object[$0] != nil }
        guard events.count == 1, let key = events.first, let value = object[key] else {
            let expected = Self.eventKeys.map { "\"\($0)\"" }.joined(separator: ", ")
            let found = events.map { "\"\($0)\"" }.joined(separator: ", ")
            report(path, events.isEmpty ? "expected one of \(expected)" : "expected only one of \(found)")
            return nil
        }
        let eventPath = Self.path(path, key)
        if key == "action" {
            guard let name = string(value, at: eventPath, required: true) else { return nil }
            return CampaignTriggerRule(event: .action(name), contextName: contextName)
        }
        let interaction = ItemInteraction(rawValue: key)
        guard let (type, id) = parseItemFilter(value, at: eventPath, productsOnly: interaction?.isAboutProducts == true)
        else { return nil }
        let event: CampaignTriggerRule.Event =
            interaction.map { .interaction($0, type: type, id: id) } ?? .itemView(type: type, id: id)
        return CampaignTriggerRule(event: event, contextName: contextName)
    }

    /// An item filter, `{"type": "Product", "id": "sku-1"}` with both keys optional, or nil after reporting its
    /// problems.
    private mutating func parseItemFilter(
        _ value: JSONValue,
        at path: String,
        productsOnly: Bool
    ) -> (ItemType?, String?)? {
        guard let filter = object(value, at: path) else { return nil }
        let problemsBefore = problems.count
        allowKeys(filter, Self.itemViewKeys, at: path)
        var type: ItemType?
        if let typeName = string(filter["type"], at: "\(path).type") {
            type = ItemType(rawValue: typeName)
            if type == nil {
                let known = ItemType.allCases.map(\.rawValue).joined(separator: ", ")
                report("\(path).type", "unknown item type \"\(typeName)\"; expected one of \(known)")
            } else if productsOnly, type != .product {
                report("\(path).type", "cart lines and orders hold products only; expected \"Product\" or no type")
            }
        }
        let id = string(filter["id"], at: "\(path).id")
        guard problems.count == problemsBefore else { return nil }
        return (type, id)
    }

    // MARK: Values

    private mutating func object(_ value: JSONValue, at path: String) -> [String: JSONValue]? {
        guard case .object(let object) = value else {
            report(path, "expected an object, found \(Self.kind(value))")
            return nil
        }
        return object
    }

    /// A non-empty string, or nil after reporting what is there instead; nil without a report when absent and
    /// not required.
    private mutating func string(_ value: JSONValue?, at path: String, required: Bool = false) -> String? {
        guard let value else {
            if required { report(path, "missing; expected a non-empty string") }
            return nil
        }
        guard case .string(let text) = value else {
            report(path, "expected a non-empty string, found \(Self.kind(value))")
            return nil
        }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            report(path, "must not be empty")
            return nil
        }
        return text
    }

    private mutating func allowKeys(_ object: [String: JSONValue], _ allowed: [String], at path: String) {
        for key in object.keys.sorted() where !allowed.contains(key) {
            report(Self.path(path, key), "unknown key; expected one of \(allowed.joined(separator: ", "))")
        }
    }

    private mutating func report(_ path: String, _ message: String) {
        problems.append(RulesFileProblem(path: path, message: message))
    }

    // MARK: Wording

    /// `path.key`, or `path["key"]` when the key is not a plain identifier.
    static func path(_ path: String, _ key: String) -> String {
        let plain =
            key.first.map { $0.isLetter || $0 == "_" } == true
            && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        if plain { return "\(path).\(key)" }
        let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\(path)[\"\(escaped)\"]"
    }

    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a Boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    static func reason(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return String(describing: error) }
        switch decoding {
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return underlying ?? context.debugDescription
        default:
            return String(describing: decoding)
        }
    }
}
