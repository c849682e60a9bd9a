import Foundation
import Testing

@testable import ActuatePersonalization
@testable import ActuateReporting

@Suite("Rules JSON Schema")
struct RulesSchemaTests {
    static let schemaURL = RepositoryFiles.url("Sources/ActuatePersonalization/Rules/rules.schema.json")

    /// The demo files that embed a rules document as `static let rules = #"""…"""#`: decisions, campaigns (two) and
    /// content blocks.
    static let demoFiles = [
        "Examples/ShopDemo/DemoPersonalization.swift", "Examples/ShopDemo/DemoCampaigns.swift",
        "Examples/ShopDemo/DemoCampaignControlGroups.swift", "Examples/ShopDemo/DemoContentBlocks.swift",
    ]

    /// Every rules file the repository ships: the examples, and the ShopDemo's embedded rules.
    static func shippedRules() throws -> [(name: String, data: Data)] {
        let examples = RepositoryFiles.url("Examples/Rules")
        var files = try FileManager.default.contentsOfDirectory(atPath: examples.path)
            .filter { $0.hasSuffix(".json") }
            .sorted()
            .map { name in
                (name: "Examples/Rules/\(name)", data: try Data(contentsOf: examples.appendingPathComponent(name)))
            }
        for name in demoFiles {
            let demo = try String(contentsOf: RepositoryFiles.url(name), encoding: .utf8)
            let start = try #require(demo.range(of: "static let rules = #\"\"\"\n"), "\(name)")
            let end = try #require(demo.range(of: "\"\"\"#", range: start.upperBound..<demo.endIndex), "\(name)")
            let literal = demo[start.upperBound..<end.lowerBound]
            // The literal is indented like the code; a raw multi-line string strips the closing delimiter's indent.
            let indent = demo[demo.index(before: end.lowerBound)...].prefix { $0 == " " }.count
            let lines = literal.split(separator: "\n", omittingEmptySubsequences: false).map { $0.dropFirst(indent) }
            files.append((name: name, data: Data(lines.joined(separator: "\n").utf8)))
        }
        return files
    }

    @Test("the schema is valid JSON that uses only the keywords the checker understands")
    func schemaIsUsable() throws {
        let checker = try SchemaChecker(schema: try Data(contentsOf: Self.schemaURL))
        #expect(try checker.violations(of: .object([:])).isEmpty)
    }

    @Test("every shipped rules file passes the schema and loads without problems")
    func shippedFilesAreValid() throws {
        let checker = try SchemaChecker(schema: try Data(contentsOf: Self.schemaURL))
        let files = try Self.shippedRules()
        #expect(files.count >= 2)
        for file in files {
            let instance = try JSONDecoder().decode(JSONValue.self, from: file.data)
            #expect(try checker.violations(of: instance) == [], "\(file.name)")
            #expect(RulesFile.validate(data: file.data) == [], "\(file.name)")
            // Each part a file holds loads, and holds something.
            guard case .object(let root) = instance else { continue }
            if root["actions"] != nil {
                #expect(try !RulesFile(data: file.data, name: file.name).actions.isEmpty, "\(file.name)")
            }
            if root["campaigns"] != nil, file.name.hasPrefix("Examples/ShopDemo") {
                #expect(try !CampaignRules(data: file.data, name: file.name).rules.isEmpty, "\(file.name)")
            }
            if root["contentBlocks"] != nil, file.name.hasPrefix("Examples/ShopDemo") {
                #expect(try !ContentBlockRules(data: file.data, name: file.name).blocks.isEmpty, "\(file.name)")
            }
        }
        #expect(files.map(\.name).filter { $0.hasPrefix("Examples/ShopDemo") } == Self.demoFiles)
    }

    @Test("the checker itself catches what it claims to")
    func checkerCatches() throws {
        let checker = try SchemaChecker(schema: try Data(contentsOf: Self.schemaURL))
        let bad: JSONValue = [
            "actions": [["id": 1.5, "contentType": "", "content": "x", "extra": true]], "conditions": "no",
        ]
        #expect(
            try checker.violations(of: bad).sorted()
                == [
                    "$.actions[0].contentType: shorter than 1 characters",
                    "$.actions[0].extra: property not allowed",
                    "$.actions[0].id: expected \(JSONValue.string("integer")), found \(JSONValue.number(1.5))",
                    "$.conditions: expected \(JSONValue.string("array")), found \(JSONValue.string("no"))",
                ].sorted()
        )
        #expect(throws: SchemaChecker.UnsupportedKeyword.self) {
            try SchemaChecker(schema: Data(#"{"type": "object", "pattern": "x"}"#.utf8)).violations(of: .object([:]))
        }
    }
}
