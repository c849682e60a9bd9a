import Foundation
import Testing

@testable import ActuatePersonalization
@testable import ActuateReporting

@Suite("Campaign rules")
struct CampaignRulesTests {
    static let valid = #"""
        {
          "actions": [{ "id": 1, "contentType": "text/html", "content": "<p>Not read here</p>" }],
          "campaigns": [
            {
              "campaignId": "summer", "campaignName": "Summer sale", "experienceId": "e1",
              "experienceName": "Banner", "messageId": "m1", "target": "product-banner",
              "promotedItemKeys": ["Product:sku-2"], "data": { "headline": "Summer sale", "discount": 20 },
              "isControlGroup": false,
              "trigger": { "itemView": { "type": "Product" }, "context": "Product" }
            },
            {
              "campaignId": "summer", "target": "product-banner", "isControlGroup": true,
              "trigger": { "action": "Open Product" }
            }
          ]
        }
        """#

    @Test("A valid file loads its campaigns and ignores the keys of the other parts")
    func loadsValidFile() throws {
        let rules = try CampaignRules(data: Data(Self.valid.utf8), name: "rules.json")
        #expect(rules.rules.count == 2)
        #expect(
            rules.rules[0].campaign
                == Campaign(
                    target: "product-banner",
                    campaignID: "summer",
                    campaignName: "Summer sale",
                    experienceID: "e1",
                    experienceName: "Banner",
                    messageID: "m1",
                    promotedItemKeys: ["Product:sku-2"],
                    data: ["headline": "Summer sale", "discount": 20],
                    isControlGroup: false
                )
        )
        #expect(
            rules.rules[0].trigger
                == CampaignTriggerRule(event: .itemView(type: .product, id: nil), contextName: "Product")
        )
        #expect(rules.rules[1].campaign.isControlGroup)
        #expect(CampaignRules.validateCampaigns(in: Data(Self.valid.utf8)).isEmpty)
    }

    @Test("A file without campaigns has none, and that is valid")
    func noCampaigns() throws {
        #expect(try CampaignRules(data: Data(#"{"actions": []}"#.utf8), name: "rules.json").rules.isEmpty)
    }

    @Test("Triggers match their action, item type, item id and context")
    func triggerMatching() throws {
        let rules = try CampaignRules(data: Data(Self.valid.utf8), name: "rules.json")
        let product = CampaignRequest(trigger: .itemView(type: .product, id: "sku-9"), contextName: "Product")
        #expect(rules.campaigns(for: product).map(\.isControlGroup) == [false])
        #expect(
            rules.campaigns(for: CampaignRequest(trigger: .itemView(type: .product, id: "sku-9"), contextName: "Home"))
                .isEmpty
        )
        #expect(
            rules.campaigns(for: CampaignRequest(trigger: .itemView(type: .article, id: "a"), contextName: "Product"))
                .isEmpty
        )
        #expect(rules.campaigns(for: CampaignRequest(trigger: .action("Open Product"), contextName: "Home")).count == 1)
        #expect(rules.campaigns(for: CampaignRequest(trigger: .action("Open Home"), contextName: "Home")).isEmpty)
        let byID = CampaignTriggerRule(event: .itemView(type: nil, id: "sku-1"))
        #expect(byID.matches(CampaignRequest(trigger: .itemView(type: .article, id: "sku-1"), contextName: "x")))
        #expect(!byID.matches(CampaignRequest(trigger: .itemView(type: .article, id: "sku-2"), contextName: "x")))
    }

    /// A file with one kind of mistake, and the problems it must give.
    struct Mistake: Sendable, CustomTestStringConvertible {
        var label: String
        var json: String
        var problems: [String]
        var testDescription: String { label }
    }

    static let okTrigger = #""trigger": {"action": "Go"}"#

    static let mistakes: [Mistake] = [
        Mistake(label: "not JSON", json: "{\"campaigns\": [", problems: ["$: not valid JSON"]),
        Mistake(label: "not an object", json: "[]", problems: ["$: expected an object, found an array"]),
        Mistake(
            label: "campaigns not an array",
            json: #"{"campaigns": {}}"#,
            problems: ["$.campaigns: expected an array, found an object"]
        ),
        Mistake(
            label: "campaign not an object",
            json: #"{"campaigns": ["c1"]}"#,
            problems: [#"$.campaigns[0]: expected an object, found a string ("c1")"#]
        ),
        Mistake(
            label: "missing id and target",
            json: #"{"campaigns": [{\#(okTrigger)}]}"#,
            problems: [
                "$.campaigns[0].campaignId: missing; expected a non-empty string",
                "$.campaigns[0].target: missing; expected a non-empty string",
            ]
        ),
        Mistake(
            label: "empty target in the third campaign",
            json:
                #"{"campaigns": [{"campaignId": "a", "target": "t", \#(okTrigger)}, {"campaignId": "b", "target": "t", \#(okTrigger)}, {"campaignId": "c", "target": "", \#(okTrigger)}]}"#,
            problems: ["$.campaigns[2].target: must not be empty"]
        ),
        Mistake(
            label: "wrong types",
            json:
                #"{"campaigns": [{"campaignId": 7, "campaignName": false, "target": "t", "data": [1], "isControlGroup": "yes", "promotedItemKeys": "sku", \#(okTrigger)}]}"#,
            problems: [
                "$.campaigns[0].campaignId: expected a non-empty string, found a number (7)",
                "$.campaigns[0].campaignName: expected a non-empty string, found a Boolean",
                #"$.campaigns[0].promotedItemKeys: expected an array, found a string ("sku")"#,
                "$.campaigns[0].data: expected an object, found an array",
                #"$.campaigns[0].isControlGroup: expected true or false, found a string ("yes")"#,
            ]
        ),
        Mistake(
            label: "a promoted item key that is not a string",
            json:
                #"{"campaigns": [{"campaignId": "a", "target": "t", "promotedItemKeys": ["Product:1", 2], \#(okTrigger)}]}"#,
            problems: ["$.campaigns[0].promotedItemKeys[1]: expected a non-empty string, found a number (2)"]
        ),
        Mistake(
            label: "unknown keys",
            json:
                #"{"campaigns": [{"campaignId": "a", "target": "t", "colour": "red", "max uses": 3, \#(okTrigger)}]}"#,
            problems: [
                #"$.campaigns[0].colour: unknown key; expected one of campaignId, campaignName, controlGroupPercent, data, experienceId, experienceName, isControlGroup, messageId, promotedItemKeys, target, trigger"#,
                #"$.campaigns[0]["max uses"]: unknown key; expected one of campaignId, campaignName, controlGroupPercent, data, experienceId, experienceName, isControlGroup, messageId, promotedItemKeys, target, trigger"#,
            ]
        ),
        Mistake(
            label: "no trigger",
            json: #"{"campaigns": [{"campaignId": "a", "target": "t"}]}"#,
            problems: [
                #"$.campaigns[0].trigger: missing; a campaign needs a trigger, such as {"action": "Add to Cart"}"#
            ]
        ),
        Mistake(
            label: "a trigger with neither event",
            json: #"{"campaigns": [{"campaignId": "a", "target": "t", "trigger": {"context": "Home"}}]}"#,
            problems: [
                #"$.campaigns[0].trigger: expected one of "action", "itemView", "addToCart", "removeFromCart", "purchase", "review", "share", "comment", "favorite""#
            ]
        ),
        Mistake(
            label: "a trigger with both events",
            json: #"{"campaigns": [{"campaignId": "a", "target": "t", "trigger": {"action": "Go", "itemView": {}}}]}"#,
            problems: [#"$.campaigns[0].trigger: expected only one of "action", "itemView""#]
        ),
        Mistake(
            label: "an empty action and an empty context",
            json: #"{"campaigns": [{"campaignId": "a", "target": "t", "trigger": {"action": " ", "context": ""}}]}"#,
            problems: [
                "$.campaigns[0].trigger.context: must not be empty",
                "$.campaigns[0].trigger.action: must not be empty",
            ]
        ),
        Mistake(
            label: "an unknown item type",
            json:
                #"{"campaigns": [{"campaignId": "a", "target": "t", "trigger": {"itemView": {"type": "Shoe", "sku": "1"}}}]}"#,
            problems: [
                "$.campaigns[0].trigger.itemView.sku: unknown key; expected one of id, type",
                #"$.campaigns[0].trigger.itemView.type: unknown item type "Shoe"; expected one of Product, Article, Blog, Category, Tag"#,
            ]
        ),
        Mistake(
            label: "an item view that is not an object",
            json: #"{"campaigns": [{"campaignId": "a", "target": "t", "trigger": {"itemView": "Product"}}]}"#,
            problems: [#"$.campaigns[0].trigger.itemView: expected an object, found a string ("Product")"#]
        ),
    ]

    @Test("Each kind of mistake is reported with its JSON path", arguments: mistakes)
    func mistakesAreReported(_ mistake: Mistake) throws {
        let problems = CampaignRules.validateCampaigns(in: Data(mistake.json.utf8))
        let described = problems.map(\.description)
        if mistake.label == "not JSON" {
            #expect(described.count == 1)
            #expect(described.first?.hasPrefix(mistake.problems[0]) == true)
        } else {
            #expect(described == mistake.problems)
        }
        #expect(throws: RulesFileError.self) { try CampaignRules(data: Data(mistake.json.utf8), name: "rules.json") }
    }

    @Test("Validation takes a decoded file too, as the validate command has one")
    func validatesDecodedJSON() throws {
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"campaigns": [{"campaignId": "a"}]}"#.utf8))
        #expect(
            CampaignRules.validateCampaigns(in: json).map(\.path) == [
                "$.campaigns[0].target", "$.campaigns[0].trigger",
            ]
        )
    }

    @Test("Loading a file names it in the error, with every problem")
    func errorNamesFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "campaign-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appending(path: "rules.json")
        try Data(#"{"campaigns": [{"campaignId": "", "target": "t", "trigger": {"action": "Go"}}]}"#.utf8).write(
            to: file
        )
        do {
            _ = try LocalCampaignSource(contentsOf: file)
            Issue.record("the file has a mistake and must not load")
        } catch {
            #expect(error.file == file.path)
            #expect(
                error.problems == [RulesFileProblem(path: "$.campaigns[0].campaignId", message: "must not be empty")]
            )
        }
        try Data(Self.valid.utf8).write(to: file)
        let source = try LocalCampaignSource(contentsOf: file)
        let earned = try await source.campaigns(
            for: CampaignRequest(trigger: .action("Open Product"), contextName: "Home")
        )
        #expect(earned.map(\.campaignID) == ["summer"])
    }

    @Test("A missing file is a clear error at the root")
    func missingFile() {
        let file = FileManager.default.temporaryDirectory.appending(path: "no-such-rules-\(UUID().uuidString).json")
        #expect {
            _ = try CampaignRules(contentsOf: file)
        } throws: { error in
            guard let error = error as? RulesFileError else { return false }
            return error.problems.count == 1 && error.problems[0].path == "$"
                && error.problems[0].message.hasPrefix("the file cannot be read")
        }
    }
}
