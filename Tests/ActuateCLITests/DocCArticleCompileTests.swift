import ActuateTestSupport
import Foundation
import Testing

/// The DocC articles are code too: every ```` ```swift ```` block of every article of every module's catalog
/// (`Sources/<Module>/<Module>.docc/*.md`) is type-checked against the modules this build made, the way
/// ``ReadmeCompileTests`` checks the README's, with the same reader and the same directives. The articles go
/// deeper into the app the README tours, so they are compiled as one module with the README's blocks, its
/// context and `Fixtures/ArticleContext.swift` (what only the articles use).
@Suite("DocC articles compile")
struct DocCArticleCompileTests {
    /// Every article of every catalog, as a path relative to the package, in a stable order.
    static func articlePaths() throws -> [String] {
        let sources = ReadmeCompileTests.packageDirectory.appendingPathComponent("Sources")
        var paths: [String] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let catalog = "Sources/\(module)/\(module).docc"
            let url = ReadmeCompileTests.packageDirectory.appendingPathComponent(catalog)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { continue }
            paths += names.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
        }
        return paths
    }

    static func articles() throws -> [MarkdownSwiftBlocks] {
        try articlePaths().map { path in
            let url = ReadmeCompileTests.packageDirectory.appendingPathComponent(path)
            return try MarkdownSwiftBlocks(markdown: String(contentsOf: url, encoding: .utf8), name: path)
        }
    }

    @Test("every catalog has articles, their fences are closed, and they hold Swift for every module")
    func articlesAreRead() throws {
        let articles = try Self.articles()
        for module in [
            "Actuate", "ActuatePlugins", "ActuateTesting", "ActuateReporting", "ActuatePersonalization",
        ] {
            let own = articles.filter { $0.name.hasPrefix("Sources/\(module)/") }
            #expect(own.count >= 2, "\(module) has a landing page and at least one article")
            #expect(own.contains { !$0.portableSwiftBlocks.isEmpty }, "\(module)'s articles show compiled Swift")
        }
    }

    @Test("a block that repeats another document's block is checked against it")
    func repeatedBlocks() throws {
        let readme = try MarkdownSwiftBlocks(markdown: "```swift\nlet a = 1\nprint(a)\n```\n")
        let copy = try MarkdownSwiftBlocks(
            markdown: "<!-- readme: repeats README.md -->\n```swift\nlet a = 1\n```\n",
            name: "A.md"
        )
        let changed = try MarkdownSwiftBlocks(
            markdown: "<!-- readme: repeats README.md -->\n```swift\nlet a = 2\n```\n",
            name: "B.md"
        )
        #expect(copy.portableSwiftBlocks.isEmpty)
        #expect(copy.repeatedBlocksMissing(in: [readme]).isEmpty)
        #expect(
            changed.repeatedBlocksMissing(in: [readme]) == [
                "B.md line 2: no Swift block of README.md holds this block's lines"
            ]
        )
        let files = MarkdownSwiftBlocks.program(of: [readme, copy], imports: [])
        #expect(files["main.swift"] == "\n// README.md line 1\ndo {\nlet a = 1\nprint(a)\n}\n")
    }

    @Test("a block taken from an example package is checked against that file, and not compiled again")
    func exampleBlocks() throws {
        let directory = try ScratchDirectory()
        try "struct A {}\nlet a = 1\nprint(a)\n".write(
            to: directory.url.appendingPathComponent("main.swift"),
            atomically: true,
            encoding: .utf8
        )
        let taken = try MarkdownSwiftBlocks(
            markdown: "<!-- readme: from main.swift -->\n```swift\nlet a = 1\nprint(a)\n```\n",
            name: "A.md"
        )
        let changed = try MarkdownSwiftBlocks(
            markdown: "<!-- readme: from main.swift -->\n```swift\nlet a = 2\n```\n",
            name: "B.md"
        )
        let missing = try MarkdownSwiftBlocks(
            markdown: "<!-- readme: from other.swift -->\n```swift\nlet a = 1\n```\n",
            name: "C.md"
        )
        #expect(taken.portableSwiftBlocks.isEmpty)
        #expect(taken.exampleBlocksMissing(packageDirectory: directory.url).isEmpty)
        #expect(
            changed.exampleBlocksMissing(packageDirectory: directory.url) == [
                "B.md line 2: main.swift does not hold this block's lines"
            ]
        )
        #expect(
            missing.exampleBlocksMissing(packageDirectory: directory.url) == [
                "C.md line 2: there is no file other.swift"
            ]
        )
    }

    @Test("every block an article takes from an example package is, line for line, in that package's file")
    func exampleBlocksMatchTheirFiles() throws {
        for article in try Self.articles() {
            #expect(article.exampleBlocksMissing(packageDirectory: ReadmeCompileTests.packageDirectory) == [])
        }
    }

    @Test("every Swift block of every DocC article type-checks against this build, with the README's app")
    func articlesTypeCheck() async throws {
        let readme = try MarkdownSwiftBlocks(markdown: ReadmeCompileTests.readme())
        let articles = try Self.articles()
        let documents = [readme] + articles
        for article in articles {
            #expect(article.repeatedBlocksMissing(in: documents) == [])
        }
        var files = MarkdownSwiftBlocks.program(of: documents, imports: ReadmeCompileTests.appImports)
        files["ReadmeContext.swift"] = try ReadmeCompileTests.fixture("ReadmeContext.swift")
        files["ArticleContext.swift"] = try ReadmeCompileTests.fixture("ArticleContext.swift")
        let result = try await SwiftTypeChecker.typeCheck(files)
        #expect(result.status == 0, "The DocC articles' Swift does not compile:\n\(result.diagnostics)")
        let warnings = result.diagnostics.components(separatedBy: "\n").filter { $0.contains(": warning:") }
        #expect(
            warnings.isEmpty,
            "The DocC articles' Swift compiles with warnings:\n\(warnings.joined(separator: "\n"))"
        )
    }
}
