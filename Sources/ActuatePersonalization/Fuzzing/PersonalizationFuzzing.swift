import Foundation

/// The entry points of the personalisation libFuzzer targets in `Tests/Fuzz`, and of the regression tests that
/// replay their corpora. Each feeds arbitrary bytes to one parser of untrusted input and must return, whatever
/// the bytes. `package`, so they are not part of the public API.
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
        _ = try? ContentBlockBridgeMessage(parsing: text, allowedSchemes: ["https", "http"], token: token)
        if case .success = BridgeMessage.parse(text, actionId: 1, bridge: .standard, token: token) { return true }
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
}
