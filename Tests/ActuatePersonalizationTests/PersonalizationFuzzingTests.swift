import ActuateFuzzEntryPoints
import Foundation
import Testing

@testable import ActuatePersonalization

/// Replays the committed corpora of the personalization fuzz targets (`Tests/Fuzz`) through their entry points,
/// so that every input the fuzzers kept, including any that once crashed, stays a regression test.
@Suite("Personalization fuzzing corpora")
struct PersonalizationFuzzingTests {
    private static let fuzz = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Fuzz")

    private static func corpus(_ target: String) throws -> [Data] {
        let folder = fuzz.appending(path: "\(target)/corpus")
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
            .map { try Data(contentsOf: $0) }
    }

    @Test("Rules files: the shipped rules are clean, the damaged ones have problems, nothing crashes")
    func rulesFiles() throws {
        let inputs = try Self.corpus("RulesFile")
        #expect(inputs.count >= 3)
        let problems = inputs.map { PersonalizationFuzzing.rulesFile($0) }
        #expect(problems.filter { $0 == 0 }.count == 1)
    }

    @Test("Content-block rules: only the valid seed is read; every extreme number is refused, nothing crashes")
    func contentBlockRules() throws {
        let inputs = try Self.corpus("ContentBlockRules")
        #expect(inputs.count >= 10)
        #expect(inputs.compactMap { PersonalizationFuzzing.contentBlockRules($0) } == [1])
    }

    @Test("Campaign rules: only the valid seed is read; numbers where strings belong are refused")
    func campaignRules() throws {
        let inputs = try Self.corpus("CampaignRules")
        #expect(inputs.count >= 10)
        #expect(inputs.compactMap { PersonalizationFuzzing.campaignRules($0) } == [2])
    }

    @Test("Content: only a JSON array of string objects gives rows")
    func content() throws {
        let rows = try Self.corpus("ContentJSON").map { PersonalizationFuzzing.content($0) }
        #expect(rows.compactMap { $0 } == [2])
    }

    @Test("Bridge messages: only the well-formed content-action click is accepted")
    func bridgeMessages() throws {
        let accepted = try Self.corpus("BridgeMessage").map { PersonalizationFuzzing.bridgeMessage($0) }
        #expect(accepted.filter { $0 }.count == 1)
    }

    @Test("Decision responses: duplicate ids and truncated bodies are refused")
    func decisionResponses() throws {
        let decoded = try Self.corpus("DecisionResponse").map { PersonalizationFuzzing.decisionResponse($0) }
        #expect(decoded.filter { $0 }.count == 1)
    }
}
