import ActuatePersonalization
import Foundation

/// The entry points of the personalization libFuzzer targets in `Tests/Fuzz`, and of the regression tests that
/// replay their corpora. Each feeds arbitrary bytes to one parser of untrusted input and must return, whatever
/// the bytes. They live in `ActuateFuzzEntryPoints`, a target in no product, and reach the module's `package`
/// declarations, so neither they nor what they call are part of the public API or of what ships.
package enum PersonalizationFuzzing {
    /// A rules file: loaded (every part: content actions, conditions, campaigns, content blocks) and validated.
    /// - Returns: How many problems validation found.
    @discardableResult
    package static func rulesFile(_ data: Data) -> Int {
        _ = try? RulesFile(data: data, name: "fuzz.json")
        _ = try? LocalDecisionSource(data: data, name: "fuzz.json")
        _ = try? CampaignRules(data: data, name: "fuzz.json")
        _ = try? ContentBlockRules(data: data, name: "fuzz.json")
        return RulesFile.validate(data: data).count
    }

    /// The content blocks of a rules file, as ``ContentBlockRules`` reads them from a file and from an
    /// ``HTTPContentBlockSource`` response. Stops the fuzzer, as a crash it reports, when the loader and the
    /// validator disagree or a block it accepts breaks the number policy.
    /// - Returns: How many blocks were read, or nil when the parser found problems.
    @discardableResult
    package static func contentBlockRules(_ data: Data) -> Int? {
        guard
            let rules = agreed(
                "content blocks",
                problems: ContentBlockRules.validate(data: data),
                load: { try ContentBlockRules(data: data, name: "fuzz.json") }
            )
        else { return nil }
        for block in rules.blocks {
            precondition(block.version >= 0, "a block has a negative version")
            if let lifetime = block.timeToLive {
                precondition(lifetime >= .milliseconds(1) && lifetime <= .seconds(31_536_000), "ttl out of range")
            }
        }
        return rules.blocks.count
    }

    /// The campaigns of a rules file, as ``CampaignRules`` reads them, and the campaigns a few requests earn.
    /// Stops the fuzzer when the loader and the validator disagree.
    /// - Returns: How many campaign rules were read, or nil when the parser found problems.
    @discardableResult
    package static func campaignRules(_ data: Data) -> Int? {
        guard
            let rules = agreed(
                "campaigns",
                problems: CampaignRules.validateCampaigns(in: data),
                load: { try CampaignRules(data: data, name: "fuzz.json") }
            )
        else { return nil }
        for trigger in [
            CampaignTrigger.action("Add to Cart"), .itemView(type: .product, id: "p1"),
            .interaction(.purchase, type: .product, ids: ["p1", "p2"]),
        ] {
            _ = rules.campaigns(for: CampaignRequest(trigger: trigger, contextName: "global"))
        }
        return rules.rules.count
    }

    /// Content of a content action, as JSON (`contentJsonArray`) and as HTML (`contentHtmlDoc`).
    /// - Returns: How many rows `contentJsonArray` found, or nil when it is nil.
    @discardableResult
    package static func content(_ data: Data) -> Int? {
        let text = String(decoding: data, as: UTF8.self)
        _ = ContentAction(id: 1, contentType: "text/html", content: text).contentHtmlDoc
        return ContentAction(id: 1, contentType: "application/json", content: text).contentJsonArray?.count
    }

    /// A message posted by a page's bridge script, to a content action and to a content block, both rendered with
    /// the token ``bridgeToken`` (so inputs that carry it reach the checks after the token's).
    /// - Returns: Whether the content action's bridge accepted it as a click.
    @discardableResult
    package static func bridgeMessage(_ data: Data) -> Bool {
        let text = String(decoding: data, as: UTF8.self)
        let token = BridgeToken(bridgeToken)
        _ = BridgeMessage.parseBlockMessage(
            text,
            bridge: ContentBridge(handlerName: "actuateContentBlock", allowedSchemes: ["https", "http"]),
            token: token
        )
        if case .success = BridgeMessage.parse(text, actionID: 1, bridge: .standard, token: token) { return true }
        return false
    }

    /// The token of the documents ``bridgeMessage(_:)`` parses messages for; the corpus's inputs carry it.
    package static let bridgeToken = "fuzz"

    /// A decision server's response body.
    /// - Returns: Whether it decoded to a result.
    @discardableResult
    package static func decisionResponse(_ data: Data) -> Bool {
        (try? DecisionWireFormat.decode(data)) != nil
    }

    /// Loads a document, stopping the fuzzer when the loader and the validator disagree on whether it is valid.
    /// - Returns: What the loader read, or nil when the validator found problems.
    private static func agreed<Rules>(
        _ what: String,
        problems: [RulesFileProblem],
        load: () throws -> Rules
    ) -> Rules? {
        guard let rules = try? load() else {
            precondition(!problems.isEmpty, "the loader refused \(what) the validator accepts")
            return nil
        }
        precondition(problems.isEmpty, "the loader accepted \(what) the validator refuses")
        return rules
    }
}
