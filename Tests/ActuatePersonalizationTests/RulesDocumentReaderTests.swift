import ActuateReporting
import Foundation
import Testing

@testable import ActuatePersonalization

@Suite("One rules-document reader")
struct RulesDocumentReaderTests {
    @Test(
        "a key that is not a plain name is quoted in brackets, escaped as in JSON",
        arguments: [
            ("plain", "$.plain"), ("_x9", "$._x9"), ("$ref", "$.$ref"), ("9lives", #"$["9lives"]"#),
            ("a b", #"$["a b"]"#), ("é", #"$["é"]"#), (#"a"b"#, #"$["a\"b"]"#), (#"a\b"#, #"$["a\\b"]"#),
            ("line\nbreak", #"$["line\nbreak"]"#), ("\u{01}", #"$["\u0001"]"#), ("", #"$[""]"#),
        ]
    )
    func pathFormat(key: String, path: String) {
        #expect(RulesDocumentReader.path("$", key) == path)
    }

    @Test("actions, campaigns and content blocks report the same mistakes in the same words and path format")
    func sameWordingInEveryPart() {
        let json = #"""
            {"actions": [{"id": 1, "contentType": "t", "content": "c", "name": true, "a\\b": 1, "é": 2}],
             "campaigns": [{"campaignId": "a", "target": "t", "trigger": {"action": "x"}, "campaignName": true,
                            "a\\b": 1, "é": 2}],
             "contentBlocks": [{"id": "b", "name": "n", "placeholders": ["p"], "html": 7, "type": true,
                                "a\\b": 1, "é": 2}]}
            """#
        let problems = RulesFile.validate(data: Data(json.utf8)).map(\.description)
        let actionKeys = "content, contentType, id, name"
        let campaignKeys =
            "campaignId, campaignName, controlGroupPercent, data, experienceId, experienceName, isControlGroup, "
            + "messageId, promotedItemKeys, target, trigger"
        let blockKeys =
            "assets, frequency, hasTrackingConsent, html, id, name, placeholders, priority, ttlSeconds, type, "
            + "variant, version"
        #expect(
            problems == [
                "$.actions[0].name: expected a string, found a Boolean",
                #"$.actions[0]["a\\b"]: unknown key; expected one of \#(actionKeys)"#,
                #"$.actions[0]["é"]: unknown key; expected one of \#(actionKeys)"#,
                #"$.campaigns[0]["a\\b"]: unknown key; expected one of \#(campaignKeys)"#,
                #"$.campaigns[0]["é"]: unknown key; expected one of \#(campaignKeys)"#,
                "$.campaigns[0].campaignName: expected a non-empty string, found a Boolean",
                #"$.contentBlocks[0]["a\\b"]: unknown key; expected one of \#(blockKeys)"#,
                #"$.contentBlocks[0]["é"]: unknown key; expected one of \#(blockKeys)"#,
                "$.contentBlocks[0].html: expected a string, found a number (7)",
                "$.contentBlocks[0].type: expected a non-empty string, found a Boolean",
            ]
        )
    }

    @Test("every part reads invalid JSON with the same message, line and column")
    func sameInvalidJSONMessage() {
        let data = Data("{\n  \"actions\": [,]\n}".utf8)
        let rules = RulesFile.validate(data: data)
        let campaigns = CampaignRules.validateCampaigns(in: data)
        let blocks = ContentBlockRules.validate(data: data)
        #expect(rules.count == 1)
        #expect(rules.first?.message.hasPrefix("not valid JSON: ") == true)
        #expect(rules.first?.message.contains("(line 2, column ") == true, "\(rules)")
        #expect(campaigns == rules)
        #expect(blocks == rules)
    }

    @Test("every key a reader accepts is in the JSON Schema, and every key the schema declares is accepted")
    func schemaDeclaresTheReadersKeys() throws {
        let schema = try JSONDecoder().decode(
            JSONValue.self,
            from: Data(contentsOf: RulesSchemaTests.schemaURL)
        )
        func properties(_ path: [String]) throws -> [String] {
            var node = schema
            for key in path {
                guard case .object(let object) = node, let next = object[key] else {
                    Issue.record("the schema has no \(path.joined(separator: "/"))")
                    return []
                }
                node = next
            }
            guard case .object(let object) = node, case .object(let declared) = object["properties"] else {
                Issue.record("\(path.joined(separator: "/")) declares no properties")
                return []
            }
            return declared.keys.sorted()
        }
        let targeting = ["$defs", "targeting", "properties"]
        let pairs: [([String], [String])] = [
            ([], RulesFileParser.rootKeys),
            (["$defs", "action"], RulesDocumentReader.contentActionKeys),
            (["$defs", "condition"], RulesFileParser.conditionKeys),
            (["$defs", "targeting"], RulesFileParser.targetingKeys),
            (targeting + ["productsSeen"], RulesFileParser.seenKeys),
            (targeting + ["articlesSeen"], RulesFileParser.seenKeys),
            (targeting + ["sessionCount"], RulesFileParser.sessionCountKeys),
            (["$defs", "campaign"], CampaignRulesParser.campaignKeys),
            (["$defs", "trigger"], CampaignRulesParser.triggerKeys),
            (["$defs", "itemFilter"], CampaignRulesParser.itemFilterKeys),
            (["$defs", "contentBlock"], ContentBlockRulesParser.blockKeys),
            (["$defs", "contentBlock", "properties", "variant"], ContentBlockRulesParser.variantKeys),
        ]
        for (path, accepted) in pairs {
            #expect(try properties(path) == accepted.sorted(), "\(path.joined(separator: "/"))")
        }
    }
}
