import Foundation
import Testing

@testable import ActuatePersonalization
@testable import ActuateReporting

/// Every numeric field of every parser of outside input, fed the numbers that trap careless conversions: each
/// is either read as the same number, inside the field's documented range, or refused with a problem at its JSON
/// path that names the range. Nothing traps.
@Suite("Numeric boundaries of the personalization parsers")
struct NumericBoundaryTests {
    /// The numbers, as written in JSON, with the value a JSON reader gives them.
    static let extremes: [(json: String, value: Double)] = [
        ("1e300", 1e300), ("-1e300", -1e300), ("1e16", 1e16), ("9223372036854775808", 0x1p63),
        ("18446744073709551616", 0x1p64), ("9223372036854775807", 0x1p63), ("9007199254740992", 0x1p53),
        ("9007199254740991", 9_007_199_254_740_991), ("-9007199254740991", -9_007_199_254_740_991), ("-0", 0),
        ("-1", -1), ("0", 0), ("1", 1), ("0.5", 0.5), ("1.5", 1.5), ("0.0001", 0.0001), ("31536000", 31_536_000),
        ("31536000.5", 31_536_000.5), ("100", 100), ("100.5", 100.5),
    ]

    /// One numeric field: a document holding `NUMBER` in it, where problems about it are reported, which numbers
    /// the field allows, and how to read the number back from what the parser returned.
    struct Field: CustomTestStringConvertible, Sendable {
        var name: String
        var document: String
        var path: String
        var allows: @Sendable (Double) -> Bool
        /// The problems of a document, each with its path.
        var problems: @Sendable (Data) -> [RulesFileProblem]
        /// The number the parser read, when it read the document.
        var read: @Sendable (Data) throws -> Double?

        var testDescription: String { name }
    }

    static let exactWhole: @Sendable (Double) -> Bool = { $0 == $0.rounded() && abs($0) <= 9_007_199_254_740_991 }

    static func rulesField(
        _ name: String,
        _ document: String,
        path: String,
        allows: @escaping @Sendable (Double) -> Bool,
        read: @escaping @Sendable (RulesFile) -> Double?
    ) -> Field {
        Field(
            name: name,
            document: document,
            path: path,
            allows: allows,
            problems: { RulesFile.validate(data: $0) },
            read: { read(try RulesFile(data: $0, name: "rules.json")) }
        )
    }

    static func blockField(
        _ key: String,
        allows: @escaping @Sendable (Double) -> Bool,
        read: @escaping @Sendable (ContentBlock) -> Double?
    ) -> Field {
        Field(
            name: "content block \(key)",
            document: #"{"contentBlocks": [{"id": "a", "name": "A", "placeholders": ["home"], "html": "<p>x</p>", "#
                + #""\#(key)": NUMBER}]}"#,
            path: "$.contentBlocks[0].\(key)",
            allows: allows,
            problems: { ContentBlockRules.validate(data: $0) },
            read: { try ContentBlockRules(data: $0, name: "blocks.json").blocks.first.flatMap(read) }
        )
    }

    static let action = #"{"id": 1, "contentType": "text/html", "content": "x"}"#

    static func targeting(_ json: String) -> String {
        #"{"actions": [\#(action)], "conditions": [{"id": 2, "actions": [1], "targeting": \#(json)}]}"#
    }

    static let fields: [Field] = [
        rulesField(
            "rules action id",
            #"{"actions": [{"id": NUMBER, "contentType": "text/html", "content": "x"}]}"#,
            path: "$.actions[0].id",
            allows: exactWhole,
            read: { $0.actions.first.map { Double($0.id) } }
        ),
        rulesField(
            "rules condition id",
            #"{"actions": [\#(action)], "conditions": [{"id": NUMBER, "actions": [1]}]}"#,
            path: "$.conditions[0].id",
            allows: exactWhole,
            read: { $0.conditions.first.map { Double($0.id) } }
        ),
        rulesField(
            "rules condition's action reference",
            #"{"actions": [{"id": NUMBER, "contentType": "text/html", "content": "x"}], "#
                + #""conditions": [{"id": 2, "actions": [NUMBER]}]}"#,
            path: "$.conditions[0].actions[0]",
            allows: exactWhole,
            read: { $0.conditions.first?.actionIDs.first.map(Double.init) }
        ),
        rulesField(
            "rules controlGroupPercent",
            #"{"actions": [\#(action)], "conditions": [{"id": 2, "actions": [1], "controlGroupPercent": NUMBER}]}"#,
            path: "$.conditions[0].controlGroupPercent",
            allows: { (0...100).contains($0) },
            read: { $0.conditions.first?.controlGroupPercent }
        ),
        rulesField(
            "rules productsSeen.minCount",
            targeting(#"{"productsSeen": {"minCount": NUMBER}}"#),
            path: "$.conditions[0].targeting.productsSeen.minCount",
            allows: { exactWhole($0) && $0 >= 1 },
            read: { $0.conditions.first?.targeting.productsSeen.map { Double($0.minCount) } }
        ),
        rulesField(
            "rules articlesSeen.minCount",
            targeting(#"{"articlesSeen": {"minCount": NUMBER}}"#),
            path: "$.conditions[0].targeting.articlesSeen.minCount",
            allows: { exactWhole($0) && $0 >= 1 },
            read: { $0.conditions.first?.targeting.articlesSeen.map { Double($0.minCount) } }
        ),
        rulesField(
            "rules sessionCount.min",
            targeting(#"{"sessionCount": {"min": NUMBER}}"#),
            path: "$.conditions[0].targeting.sessionCount.min",
            allows: { exactWhole($0) && $0 >= 0 },
            read: { $0.conditions.first?.targeting.sessionCount?.min.map(Double.init) }
        ),
        rulesField(
            "rules sessionCount.max",
            targeting(#"{"sessionCount": {"max": NUMBER}}"#),
            path: "$.conditions[0].targeting.sessionCount.max",
            allows: { exactWhole($0) && $0 >= 0 },
            read: { $0.conditions.first?.targeting.sessionCount?.max.map(Double.init) }
        ),
        rulesField(
            "rules version",
            #"{"version": NUMBER}"#,
            path: "$.version",
            allows: { $0 == 1 },
            read: { _ in 1 }
        ),
        blockField("priority", allows: exactWhole, read: { Double($0.priority) }),
        blockField("version", allows: { exactWhole($0) && $0 >= 0 }, read: { Double($0.version) }),
        blockField(
            "ttlSeconds",
            allows: { (0.001...31_536_000).contains($0) },
            read: { block in
                block.timeToLive.map {
                    Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18
                }
            }
        ),
        Field(
            name: "campaign data",
            document: #"{"campaigns": [{"campaignId": "c", "target": "main", "data": {"discount": NUMBER}, "#
                + #""trigger": {"action": "Buy"}}]}"#,
            path: "$.campaigns[0].data.discount",
            allows: { _ in true },
            problems: { CampaignRules.validateCampaigns(in: $0) },
            read: {
                try CampaignRules(data: $0, name: "campaigns.json").rules.first?.campaign.data["discount"]?.numberValue
            }
        ),
        Field(
            name: "campaign id given as a number",
            document: #"{"campaigns": [{"campaignId": NUMBER, "target": "main", "trigger": {"action": "Buy"}}]}"#,
            path: "$.campaigns[0].campaignId",
            allows: { _ in false },
            problems: { CampaignRules.validateCampaigns(in: $0) },
            read: { try CampaignRules(data: $0, name: "campaigns.json").rules.isEmpty ? nil : 0 }
        ),
        decisionField(
            "decision action id",
            #"{"actions": [{"id": NUMBER, "contentType": "text/html", "content": "x"}]}"#,
            path: "$.actions[0].id",
            read: { $0.actions.first.map { Double($0.id) } }
        ),
        decisionField(
            "decision condition id",
            #"{"conditions": [{"id": NUMBER}], "actions": []}"#,
            path: "$.conditions[0].id",
            read: { $0.conditions.first.map { Double($0.id) } }
        ),
    ]

    /// A field of a decision server's response, which the decoder reads whole or refuses with one reason.
    static func decisionField(
        _ name: String,
        _ document: String,
        path: String,
        read: @escaping @Sendable (TrackerResult) -> Double?
    ) -> Field {
        Field(
            name: name,
            document: document,
            path: path,
            allows: exactWhole,
            problems: { data in
                do {
                    _ = try DecisionWireFormat.decode(data)
                    return []
                } catch {
                    guard case .invalidResponse(let invalid) = error as? DecisionSourceError else { return [] }
                    return invalid.problems
                }
            },
            read: { read(try DecisionWireFormat.decode($0)) }
        )
    }

    @Test("each numeric field reads an allowed number exactly and refuses the rest at its path", arguments: fields)
    func everyField(field: Field) throws {
        for number in Self.extremes {
            let data = Data(field.document.replacingOccurrences(of: "NUMBER", with: number.json).utf8)
            let problems = field.problems(data)
            let atField = problems.filter { $0.path == field.path }
            if field.allows(number.value) {
                #expect(atField.isEmpty, "\(field.name) = \(number.json): \(atField)")
                #expect(try field.read(data) == number.value, "\(field.name) = \(number.json)")
            } else {
                #expect(!atField.isEmpty, "\(field.name) = \(number.json) was accepted: \(problems)")
                #expect((try? field.read(data)) == nil, "\(field.name) = \(number.json) was read")
            }
        }
    }

    @Test(
        "a refused number's problem names the field's range",
        arguments: [
            (
                #"{"contentBlocks": [{"id": "a", "name": "A", "placeholders": ["home"], "html": "<p>x</p>", "#
                    + #""ttlSeconds": 1e300}]}"#,
                "$.contentBlocks[0].ttlSeconds: expected a number of seconds from 0.001 to 31536000 (365 days), "
                    + "found 1e+300"
            ),
            (
                #"{"contentBlocks": [{"id": "a", "name": "A", "placeholders": ["home"], "html": "<p>x</p>", "#
                    + #""ttlSeconds": 1e16}]}"#,
                "$.contentBlocks[0].ttlSeconds: expected a number of seconds from 0.001 to 31536000 (365 days), "
                    + "found 10000000000000000"
            ),
            (
                #"{"contentBlocks": [{"id": "a", "name": "A", "placeholders": ["home"], "html": "", "version": -1}]}"#,
                "$.contentBlocks[0].version: expected a whole number of at least 0, found -1"
            ),
            (
                #"{"actions": [{"id": 9223372036854775808, "contentType": "text/html", "content": "x"}]}"#,
                "$.actions[0].id: expected a whole number from -9007199254740991 to 9007199254740991, "
                    + "found 9.223372036854776e+18"
            ),
            (
                #"{"actions": [{"id": 0.5, "contentType": "text/html", "content": "x"}]}"#,
                "$.actions[0].id: expected a whole number, found 0.5"
            ),
        ] as [(String, String)]
    )
    func messages(document: String, expected: String) {
        let data = Data(document.utf8)
        let problems = RulesFile.validate(data: data).map(\.description)
        #expect(problems.contains(expected), "\(problems)")
    }

    @Test("a decision response with an id past 2^53 is refused, naming the path and the range")
    func decisionIDBeyondExactRange() {
        let data = Data(#"{"actions": [{"id": 10000000000000000, "contentType": "text/html", "content": "x"}]}"#.utf8)
        #expect(
            throws: DecisionSourceError.invalidResponse(
                RulesFileError(
                    file: DecisionWireFormat.answerName,
                    problems: [
                        RulesFileProblem(
                            path: "$.actions[0].id",
                            message: "expected a whole number from -9007199254740991 to 9007199254740991, "
                                + "found 10000000000000000"
                        )
                    ]
                )
            )
        ) { try DecisionWireFormat.decode(data) }
    }

    @Test("a content-block server answering ttlSeconds 1e300 gets a clear error, not a crash")
    func serverTimeToLive() async throws {
        try await ContentServer.with { server in
            try await server.setBlocksAnswer(
                #"{"contentBlocks": [{"id": "a", "name": "A", "placeholders": ["home"], "html": "<p>x</p>", "#
                    + #""ttlSeconds": 1e300}]}"#
            )
            let source = try HTTPContentBlockSource(endpoint: server.blocksURL)
            let result = await source.result()
            guard case .failure(let error) = result else {
                Issue.record("the answer was accepted: \(result)")
                return
            }
            #expect(error.description.contains("$.contentBlocks[0].ttlSeconds: expected a number of seconds from"))
        }
    }
}
