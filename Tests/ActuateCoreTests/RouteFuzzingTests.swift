import ActuateCore
import ActuateFuzzEntryPoints
import Foundation
import Testing

/// Replays the committed corpus of the `RouteMatching` fuzz target (`Tests/Fuzz`) through its entry point, so
/// that every input the fuzzer ever kept, including any that once crashed, stays a regression test.
@Suite("Route fuzzing corpus")
struct RouteFuzzingTests {
    static let corpus = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Fuzz/RouteMatching/corpus")

    @Test("Every corpus input returns")
    func corpusReplays() throws {
        let files = try FileManager.default.contentsOfDirectory(at: Self.corpus, includingPropertiesForKeys: nil)
        #expect(files.count >= 5)
        for file in files {
            RouteFuzzing.compileAndMatch(String(decoding: try Data(contentsOf: file), as: UTF8.self))
        }
    }

    @Test(
        "The entry point compiles and matches what the router would",
        arguments: [
            ("product/$(id)\nshop://product/42", ["id": "42"]),
            ("a/**/b\nhttps://shop.example.com/a/x/y/b?q=1", [:]),
            ("$(a)/$(a)\nshop://one/two", nil),
            ("product/$(id)\nftp://product/42", nil),
        ] as [(String, [String: String]?)]
    )
    func matches(input: String, expected: [String: String]?) {
        #expect(RouteFuzzing.compileAndMatch(input) == expected)
    }
}
