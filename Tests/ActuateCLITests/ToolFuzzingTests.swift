import ActuateCLIFuzzEntryPoints
import Foundation
import Testing

@testable import ActuateCLI

/// Replays the committed corpus of the `DebugReport` fuzz target (`Tests/Fuzz`) through its entry point, so that
/// every input the fuzzer kept, including any that once crashed, stays a regression test.
@Suite("Debug report fuzzing corpus")
struct ToolFuzzingTests {
    private static let corpus = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Fuzz/DebugReport/corpus")

    @Test("every input returns; valid reports are read, the overflowing and the truncated ones refused")
    func corpusReplays() throws {
        let files = try FileManager.default.contentsOfDirectory(at: Self.corpus, includingPropertiesForKeys: nil)
        let read = try Dictionary(
            uniqueKeysWithValues: files.map {
                ($0.lastPathComponent, ToolFuzzing.debugReport(try Data(contentsOf: $0)))
            }
        )
        #expect(read.count >= 20)
        #expect(read["valid.json"] == true)
        #expect(read["overflow-running-at-max.json"] == true)
        #expect(read["terminal-escapes.json"] == true)
        #expect(read["overflow-start-max-and-zero.json"] == false)
        #expect(read["overflow-duration-past-max.json"] == false)
        #expect(read["truncated.json"] == false)
        #expect(read["extreme-1e300.json"] == false)
    }
}
