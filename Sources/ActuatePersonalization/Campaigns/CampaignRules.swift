import ActuateReporting
import Foundation

/// The campaigns of a rules file: its `campaigns` array, each entry a ``Campaign`` with the trigger that earns
/// it. The file's other keys belong to the other parts of this module and are ignored here.
///
/// ```json
/// {
///   "campaigns": [
///     {
///       "campaignId": "summer", "campaignName": "Summer sale", "messageId": "m1",
///       "target": "product-banner", "promotedItemKeys": ["Product:sku-2"],
///       "data": { "headline": "Summer sale: 20% off" },
///       "controlGroupPercent": 10,
///       "trigger": { "itemView": { "type": "Product" }, "context": "Product" }
///     }
///   ]
/// }
/// ```
///
/// Keys of a campaign: `campaignId` and `target` (non-empty strings, required), `trigger` (required: an action, an
/// item view or an item interaction such as `{"addToCart": {"id": "sku-1"}}`, see ``CampaignTriggerRule``),
/// `campaignName`, `experienceId`, `experienceName`, `messageId` (non-empty strings), `promotedItemKeys` (an array
/// of non-empty strings), `data` (an object), `controlGroupPercent` (a number from 0 to 100: the share of users
/// held back as the campaign's control group, chosen per user as ``campaigns(for:)`` describes), and
/// `isControlGroup` (true or false: true makes every user control, and cannot be combined with
/// `controlGroupPercent`).
package struct CampaignRules: Sendable, Hashable {
    /// The rules, in file order.
    package var rules: [CampaignRule]

    /// Creates rules in code.
    /// - Parameter rules: The rules.
    package init(rules: [CampaignRule]) {
        self.rules = rules
    }

    /// Loads the campaigns of a rules file.
    /// - Parameter url: The file.
    /// - Throws: ``RulesFileError`` naming the file and every problem with its JSON path.
    package init(contentsOf url: URL) throws(RulesFileError) {
        try self.init(data: RulesFileReader.data(contentsOf: url), name: url.path)
    }

    /// Parses the campaigns of a rules file.
    /// - Parameters:
    ///   - data: The file's JSON.
    ///   - name: What to call the data in errors.
    /// - Throws: ``RulesFileError`` naming `name` and every problem with its JSON path.
    package init(data: Data, name: String) throws(RulesFileError) {
        self.init(rules: try RulesFileReader.part(of: data, name: name, using: CampaignRulesParser.self))
    }

    /// Every problem in a rules file's `campaigns` array, campaign by campaign; empty when it is valid. This is
    /// what `actuate validate` reports for campaigns.
    /// - Parameter json: The whole rules file, decoded.
    /// - Returns: The problems, each with its JSON path, such as `$.campaigns[2].target`.
    package static func validateCampaigns(in json: JSONValue) -> [RulesFileProblem] {
        var parser = CampaignRulesParser()
        _ = parser.parse(json)
        return parser.problems
    }

    /// Every problem in a rules file's `campaigns` array, campaign by campaign, including JSON that does not parse.
    /// - Parameter data: The whole rules file.
    /// - Returns: The problems, each with its JSON path.
    package static func validateCampaigns(in data: Data) -> [RulesFileProblem] {
        RulesFileReader.problems(in: data, using: CampaignRulesParser.self)
    }

    /// The campaigns a request earns: those whose trigger matches it, in file order, each marked
    /// ``Campaign/isControlGroup`` when the request's visitor falls in its control group.
    ///
    /// A rule's ``CampaignRule/controlGroupPercent`` puts that share of visitors in the control group, the same
    /// way as a rules file's conditions: a bucket from 0 to 9,999 hashed from the visitor id and `campaign:` plus
    /// the campaign id (FNV-1a, then MurmurHash3's `fmix64`), so a visitor stays in the same group on every
    /// launch and device, and the groups of two campaigns are independent of each other.
    /// - Parameter request: The tracked event, its context and its visitor.
    /// - Returns: The matching campaigns, as offered to the request's visitor.
    package func campaigns(for request: CampaignRequest) -> [Campaign] {
        rules.filter { $0.trigger.matches(request) }.map { $0.campaign(forVisitor: request.identity?.anonymousID) }
    }
}
