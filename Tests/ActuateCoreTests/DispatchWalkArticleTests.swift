import Foundation
import Testing

/// The "How dispatch works" article walks one dispatch file by file; these checks keep the walk true to the tree.
@Suite("How dispatch works: the walk names real files, each once")
struct DispatchWalkArticleTests {
    static let packageRoot = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `Sources/...swift` paths of the article's walk section, in the order they appear.
    static func walkedFiles() throws -> [String] {
        let article = packageRoot.appending(path: "Sources/Actuate/Actuate.docc/HowDispatchWorks.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        let walk =
            try #require(text.components(separatedBy: "## The walk").dropFirst().first)
            .components(separatedBy: "\n## ").first ?? ""
        let pattern = try Regex("`(Sources/[A-Za-z/]+\\.swift)`")
        return walk.matches(of: pattern).map { String($0.output[1].substring ?? "") }
    }

    @Test("every file the walk names exists, and none is named twice")
    func walkNamesEachExistingFileOnce() throws {
        let files = try Self.walkedFiles()
        #expect(files.count >= 20)
        for file in files {
            #expect(
                FileManager.default.fileExists(atPath: Self.packageRoot.appending(path: file).path),
                "the walk names \(file), which does not exist"
            )
        }
        let repeated = Dictionary(grouping: files, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "named more than once: \(repeated)")
    }

    @Test("the walk covers the files of the dispatch path and its operation chain, in order")
    func walkCoversTheDispatchPath() throws {
        let files = try Self.walkedFiles()
        let path = [
            "Sources/Actuate/Dispatch/ActionBinding.swift",
            "Sources/Actuate/Dispatch/ActionSession.swift",
            "Sources/Actuate/Dispatch/ActionDispatcher.swift",
            "Sources/Actuate/Internal/DispatchOperation.swift",
            "Sources/Actuate/Actions/CompletionRequirement.swift",
            "Sources/Actuate/Dispatch/DispatchQueueMarker.swift",
        ]
        let positions = path.map { files.firstIndex(of: $0) }
        #expect(!positions.contains(nil), "missing from the walk: \(zip(path, positions).filter { $1 == nil })")
        let found = positions.compactMap { $0 }
        #expect(found == found.sorted())
    }
}
