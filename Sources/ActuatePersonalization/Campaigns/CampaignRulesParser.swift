import ActuateReporting
import Foundation

/// Reads the `campaigns` array of a rules file, collecting every problem with its JSON path instead of
/// stopping at the first.
struct CampaignRulesParser {
    private var reader = RulesDocumentReader()
    /// The problems found, in the order they were found.
    var problems: [RulesFileProblem] { reader.problems }

    static let campaignKeys = [
        "campaignId", "campaignName", "experienceId", "experienceName", "messageId", "target", "promotedItemKeys",
        "data", "isControlGroup", "controlGroupPercent", "trigger",
    ]
    static let eventKeys = ["action", "itemView"] + ItemInteraction.allCases.map(\.rawValue)
    static let triggerKeys = eventKeys + ["context"]
    static let itemFilterKeys = ["type", "id"]

    /// The rules that could be read; check ``problems`` either way.
    mutating func parse(_ data: Data) -> [CampaignRule] {
        reader.root(of: data).map { parse($0) } ?? []
    }

    /// The rules that could be read from a decoded file; check ``problems`` either way.
    mutating func parse(_ root: JSONValue) -> [CampaignRule] {
        guard let object = reader.object(root, at: "$") else { return [] }
        let campaigns = reader.array(object["campaigns"], at: "$.campaigns") ?? []
        return campaigns.enumerated().compactMap { parseCampaign($0.element, at: "$.campaigns[\($0.offset)]") }
    }

    // MARK: Elements

    private mutating func parseCampaign(_ value: JSONValue, at path: String) -> CampaignRule? {
        guard let object = reader.object(value, at: path, keys: Self.campaignKeys) else { return nil }
        let campaignID = text(object, "campaignId", at: path, required: true)
        let campaignName = text(object, "campaignName", at: path)
        let experienceID = text(object, "experienceId", at: path)
        let experienceName = text(object, "experienceName", at: path)
        let messageID = text(object, "messageId", at: path)
        let target = text(object, "target", at: path, required: true)
        let promotedPath = "\(path).promotedItemKeys"
        let promoted = reader.array(object["promotedItemKeys"], at: promotedPath).map {
            reader.strings($0, at: promotedPath, nonEmpty: true)
        }
        let data = object["data"].flatMap { reader.object($0, at: "\(path).data") }
        let isControlGroup = object["isControlGroup"].flatMap { reader.bool($0, at: "\(path).isControlGroup") }
        let controlGroupPercent = parseControlGroupPercent(object, isControlGroup: isControlGroup == true, at: path)
        let trigger = parseTrigger(object["trigger"], at: "\(path).trigger")
        guard let campaignID, let target, let trigger, let controlGroupPercent else { return nil }
        let campaign = Campaign(
            target: target,
            campaignID: campaignID,
            campaignName: campaignName,
            experienceID: experienceID,
            experienceName: experienceName,
            messageID: messageID,
            promotedItemKeys: promoted ?? [],
            data: data ?? [:],
            isControlGroup: isControlGroup ?? false
        )
        return CampaignRule(campaign: campaign, trigger: trigger, controlGroupPercent: controlGroupPercent)
    }

    /// The non-empty string at `object[key]`.
    private mutating func text(
        _ object: [String: JSONValue],
        _ key: String,
        at path: String,
        required: Bool = false
    ) -> String? {
        reader.string(object[key], at: "\(path).\(key)", required: required, nonEmpty: true)
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
        guard let percent = reader.percent(raw, at: percentPath) else { return nil }
        guard !isControlGroup else {
            reader.report(
                percentPath,
                "not allowed with \"isControlGroup\": true, which holds every user back; keep one of the two"
            )
            return nil
        }
        return percent
    }

    private mutating func parseTrigger(_ value: JSONValue?, at path: String) -> CampaignTriggerRule? {
        guard let value else {
            reader.report(path, "missing; a campaign needs a trigger, such as {\"action\": \"Add to Cart\"}")
            return nil
        }
        guard let object = reader.object(value, at: path, keys: Self.triggerKeys) else { return nil }
        let contextName = reader.string(object["context"], at: "\(path).context", nonEmpty: true)
        let events = Self.eventKeys.filter { object[$0] != nil }
        guard events.count == 1, let key = events.first, let value = object[key] else {
            let expected = Self.eventKeys.map { "\"\($0)\"" }.joined(separator: ", ")
            let found = events.map { "\"\($0)\"" }.joined(separator: ", ")
            reader.report(path, events.isEmpty ? "expected one of \(expected)" : "expected only one of \(found)")
            return nil
        }
        let eventPath = RulesDocumentReader.path(path, key)
        if key == "action" {
            guard let name = reader.string(value, at: eventPath, required: true, nonEmpty: true) else { return nil }
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
        let problemsBefore = reader.problems.count
        guard let filter = reader.object(value, at: path, keys: Self.itemFilterKeys) else { return nil }
        var type: ItemType?
        if let raw = filter["type"],
            let name = reader.choice(
                raw,
                at: "\(path).type",
                named: "item type",
                among: ItemType.allCases.map(\.rawValue)
            )
        {
            type = ItemType(rawValue: name)
            if productsOnly, type != .product {
                reader.report(
                    "\(path).type",
                    "cart lines and orders hold products only; expected \"Product\" or no type"
                )
            }
        }
        let id = text(filter, "id", at: path)
        guard reader.problems.count == problemsBefore else { return nil }
        return (type, id)
    }
}
