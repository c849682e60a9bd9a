import Foundation
import Testing

@testable import ActuatePersonalization
@testable import ActuateReporting

@Suite("Rules files")
struct RulesFileTests {
    struct Mistake: Sendable, CustomTestStringConvertible {
        var name: String
        var json: String
        var path: String
        var message: String
        /// Whether the JSON Schema can see this mistake too (uniqueness and references it cannot).
        var schemaSees: Bool

        var testDescription: String { name }
    }

    static let banner = #"{"id": 7, "name": "Banner", "contentType": "text/html", "content": "<b>Hi</b>"}"#

    static func withCondition(_ condition: String) -> String {
        #"{"actions": [\#(banner)], "conditions": [\#(condition)]}"#
    }

    static func withTargeting(_ targeting: String) -> String {
        withCondition(#"{"id": 1, "actions": [7], "targeting": \#(targeting)}"#)
    }

    static let mistakes: [Mistake] = [
        Mistake(
            name: "root is an array",
            json: "[]",
            path: "$",
            message: "expected an object, found an array",
            schemaSees: true
        ),
        Mistake(
            name: "unknown top-level key",
            json: #"{"action": []}"#,
            path: "$.action",
            message: "unknown key; expected one of $schema, actions, campaigns, conditions, contentBlocks, version",
            schemaSees: true
        ),
        Mistake(
            name: "unsupported version",
            json: #"{"version": 2}"#,
            path: "$.version",
            message: "unsupported version; this reader understands version 1",
            schemaSees: true
        ),
        Mistake(
            name: "actions is an object",
            json: #"{"actions": {}}"#,
            path: "$.actions",
            message: "expected an array, found an object",
            schemaSees: true
        ),
        Mistake(
            name: "action is a string",
            json: #"{"actions": ["banner"]}"#,
            path: "$.actions[0]",
            message: "expected an object, found a string (\"banner\")",
            schemaSees: true
        ),
        Mistake(
            name: "id is a string",
            json: #"{"actions": [{"id": "7", "contentType": "text/html", "content": "x"}]}"#,
            path: "$.actions[0].id",
            message: "expected a whole number, found a string (\"7\")",
            schemaSees: true
        ),
        Mistake(
            name: "id is a fraction",
            json: #"{"actions": [{"id": 7.5, "contentType": "text/html", "content": "x"}]}"#,
            path: "$.actions[0].id",
            message: "expected a whole number, found 7.5",
            schemaSees: true
        ),
        Mistake(
            name: "content missing",
            json: #"{"actions": [{"id": 7, "contentType": "text/html"}]}"#,
            path: "$.actions[0].content",
            message: "missing; expected a string",
            schemaSees: true
        ),
        Mistake(
            name: "content type is a number",
            json: #"{"actions": [{"id": 7, "contentType": 3, "content": "x"}]}"#,
            path: "$.actions[0].contentType",
            message: "expected a string, found a number (3)",
            schemaSees: true
        ),
        Mistake(
            name: "misspelt key",
            json: #"{"actions": [{"id": 7, "contentType": "text/html", "contnet": "x", "content": "y"}]}"#,
            path: "$.actions[0].contnet",
            message: "unknown key; expected one of content, contentType, id, name",
            schemaSees: true
        ),
        Mistake(
            name: "empty content",
            json: #"{"actions": [{"id": 7, "contentType": "text/html", "content": ""}]}"#,
            path: "$.actions[0].content",
            message: "the content is empty",
            schemaSees: true
        ),
        Mistake(
            name: "duplicate action id",
            json: #"{"actions": [\#(banner), \#(banner)]}"#,
            path: "$.actions[1].id",
            message: "duplicate action id 7 (first at $.actions[0])",
            schemaSees: false
        ),
        Mistake(
            name: "JSON content that is not an array of string objects",
            json: #"{"actions": [{"id": 7, "contentType": "application/json", "content": "{\"a\": 1}"}]}"#,
            path: "$.actions[0].content",
            message:
                "the content type is application/json but the content is not a JSON array of objects whose values are all strings",
            schemaSees: false
        ),
        Mistake(
            name: "condition names a missing action",
            json: withCondition(#"{"id": 1, "actions": [7, 99]}"#),
            path: "$.conditions[0].actions[1]",
            message: "no action has id 99",
            schemaSees: false
        ),
        Mistake(
            name: "condition without actions",
            json: withCondition(#"{"id": 1}"#),
            path: "$.conditions[0].actions",
            message: "missing; expected an array",
            schemaSees: true
        ),
        Mistake(
            name: "duplicate condition id",
            json: #"{"actions": [\#(banner)], "conditions": [{"id": 1, "actions": [7]}, {"id": 1, "actions": []}]}"#,
            path: "$.conditions[1].id",
            message: "duplicate condition id 1 (first at $.conditions[0])",
            schemaSees: false
        ),
        Mistake(
            name: "control group above 100",
            json: withCondition(#"{"id": 1, "actions": [7], "controlGroupPercent": 150}"#),
            path: "$.conditions[0].controlGroupPercent",
            message: "expected a number from 0 to 100, found 150",
            schemaSees: true
        ),
        Mistake(
            name: "control group as a string",
            json: withCondition(#"{"id": 1, "actions": [7], "controlGroupPercent": "10%"}"#),
            path: "$.conditions[0].controlGroupPercent",
            message: "expected a number from 0 to 100, found a string (\"10%\")",
            schemaSees: true
        ),
        Mistake(
            name: "unknown targeting criterion",
            json: withTargeting(#"{"document": ["home"]}"#),
            path: "$.conditions[0].targeting.document",
            message: "unknown key; expected one of articlesSeen, documents, productsSeen, sessionCount, userData",
            schemaSees: true
        ),
        Mistake(
            name: "empty document list",
            json: withTargeting(#"{"documents": []}"#),
            path: "$.conditions[0].targeting.documents",
            message: "the list is empty, so nothing matches",
            schemaSees: true
        ),
        Mistake(
            name: "unknown product event",
            json: withTargeting(#"{"productsSeen": {"event": "bought"}}"#),
            path: "$.conditions[0].targeting.productsSeen.event",
            message: "unknown event \"bought\"; expected one of viewed, addedToCart, liked, purchased",
            schemaSees: true
        ),
        Mistake(
            name: "article event of a product list",
            json: withTargeting(#"{"articlesSeen": {"event": "addedToCart"}}"#),
            path: "$.conditions[0].targeting.articlesSeen.event",
            message: "unknown event \"addedToCart\"; expected one of viewed, liked, commented, goal",
            schemaSees: true
        ),
        Mistake(
            name: "minimum count of zero",
            json: withTargeting(#"{"productsSeen": {"minCount": 0}}"#),
            path: "$.conditions[0].targeting.productsSeen.minCount",
            message: "expected a whole number of at least 1, found 0",
            schemaSees: true
        ),
        Mistake(
            name: "session range upside down",
            json: withTargeting(#"{"sessionCount": {"min": 5, "max": 2}}"#),
            path: "$.conditions[0].targeting.sessionCount",
            message: "min 5 is greater than max 2",
            schemaSees: false
        ),
        Mistake(
            name: "empty session range",
            json: withTargeting(#"{"sessionCount": {}}"#),
            path: "$.conditions[0].targeting.sessionCount",
            message: "give min, max or both",
            schemaSees: true
        ),
        Mistake(
            name: "user data value that is not a string",
            json: withTargeting(#"{"userData": {"tier": 3}}"#),
            path: "$.conditions[0].targeting.userData.tier",
            message: "expected a string, found a number (3)",
            schemaSees: true
        ),
    ]

    @Test("each kind of mistake is reported with its JSON path", arguments: mistakes)
    func mistake(_ mistake: Mistake) throws {
        let problems = RulesFile.validate(data: Data(mistake.json.utf8))
        #expect(problems == [RulesFileProblem(path: mistake.path, message: mistake.message)])
        #expect(throws: RulesFileError(file: "rules.json", problems: problems)) {
            try RulesFile(data: Data(mistake.json.utf8), name: "rules.json")
        }
    }

    @Test("the JSON Schema rejects the same mistakes where a schema can see them", arguments: mistakes)
    func schemaAgrees(_ mistake: Mistake) throws {
        let checker = try SchemaChecker(schema: try Data(contentsOf: RulesSchemaTests.schemaURL))
        let violations = try checker.violations(
            of: try JSONDecoder().decode(JSONValue.self, from: Data(mistake.json.utf8))
        )
        #expect(violations.isEmpty == !mistake.schemaSees, "\(violations)")
    }

    @Test("invalid JSON names the file and says why", arguments: [#"{"actions": [{"id": 7"#, "{actions: []}", ""])
    func invalidJSON(_ text: String) throws {
        let problems = RulesFile.validate(data: Data(text.utf8))
        #expect(problems.count == 1)
        #expect(problems.first?.path == "$")
        #expect(problems.first?.message.hasPrefix("not valid JSON: ") == true)
        #expect(problems.first.map { $0.message.count > "not valid JSON: ".count } == true)
    }

    @Test("a syntax error is located by line and column")
    func syntaxErrorLocation() {
        let problems = RulesFile.validate(data: Data("{\n  \"actions\": [\n    ?\n  ]\n}".utf8))
        #expect(problems.map(\.path) == ["$"])
        #expect(problems.first?.message.hasSuffix("(line 3, column 5)") == true, "\(problems)")
    }

    @Test("every mistake in a file is reported at once, in document order")
    func manyMistakes() {
        let json = """
            {
              "actions": [
                {"id": 7, "contentType": "text/html", "content": ""},
                {"id": "8", "contentType": "text/html", "content": "x"},
                {"id": 7, "contentType": "text/html", "content": "y"}
              ],
              "conditions": [
                {"id": 1, "actions": [7, 8, 12], "controlGroupPercent": -1}
              ],
              "extra": true
            }
            """
        #expect(
            RulesFile.validate(data: Data(json.utf8)).map(\.description) == [
                "$.actions[0].content: the content is empty",
                #"$.actions[1].id: expected a whole number, found a string ("8")"#,
                "$.actions[2].id: duplicate action id 7 (first at $.actions[0])",
                "$.conditions[0].actions[1]: no action has id 8",
                "$.conditions[0].actions[2]: no action has id 12",
                "$.conditions[0].controlGroupPercent: expected a number from 0 to 100, found -1",
                "$.extra: unknown key; expected one of $schema, actions, campaigns, conditions, contentBlocks, version",
            ]
        )
    }

    @Test(
        "campaigns and contentBlocks are left to their own loaders, and validation checks them under their own paths"
    )
    func otherPartsLeftToTheirLoaders() throws {
        let json =
            #"{"actions": [\#(Self.banner)], "campaigns": [{"target": "hero", "anything": [1, 2]}], "contentBlocks": [{"placeholderId": "home", "x": {}}]}"#
        let rules = try RulesFile(data: Data(json.utf8), name: "rules.json")
        #expect(rules.actions.map(\.id) == [7])
        let paths = RulesFile.validate(data: Data(json.utf8)).map(\.path)
        #expect(paths.contains("$.campaigns[0].anything"))
        #expect(paths.contains("$.contentBlocks[0].x"))
        #expect(!paths.contains { $0.hasPrefix("$.actions") })
    }

    @Test("a file that cannot be read is reported against its path")
    func unreadableFile() {
        let url = TemporaryDirectory().appending("missing.json")
        let problems = RulesFile.validate(contentsOf: url)
        #expect(problems.count == 1)
        #expect(problems.first?.path == "$")
        #expect(problems.first?.message.hasPrefix("the file cannot be read") == true)
        do {
            _ = try RulesFile(contentsOf: url)
            Issue.record("expected an error")
        } catch {
            #expect(error.file == url.path)
            #expect(error.description.hasPrefix("\(url.path): 1 problem\n  $: the file cannot be read"))
        }
    }

    @Test("validate(contentsOf:) reads a real file and finds nothing wrong in a good one")
    func validateFile() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let good = directory.appending("good.json")
        try Data(#"{"actions": [\#(Self.banner)], "conditions": [{"id": 1, "actions": [7]}]}"#.utf8).write(to: good)
        #expect(RulesFile.validate(contentsOf: good).isEmpty)
        let bad = directory.appending("bad.json")
        try Data(#"{"actions": [\#(Self.banner)], "conditions": [{"id": 1, "actions": [8]}]}"#.utf8).write(to: bad)
        #expect(
            RulesFile.validate(contentsOf: bad) == [
                RulesFileProblem(path: "$.conditions[0].actions[0]", message: "no action has id 8")
            ]
        )
    }

    @Test("rules built in code are checked by LocalDecisionSource too")
    func rulesInCode() {
        let rules = RulesFile(
            actions: [.banner()],
            conditions: [RuleCondition(id: 1, actionIDs: [7, 9], controlGroupPercent: 101)]
        )
        #expect(throws: RulesFileError.self) { try LocalDecisionSource(rules: rules) }
        #expect(
            rules.problems.map(\.description) == [
                "$.conditions[0].actions[1]: no action has id 9",
                "$.conditions[0].controlGroupPercent: expected a number from 0 to 100, found 101",
            ]
        )
    }
}
