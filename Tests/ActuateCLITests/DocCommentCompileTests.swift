import ActuateTestSupport
import Foundation
import Testing

/// The examples of the `///` documentation comments are code too: every ```` ```swift ```` block in a `///` comment
/// of `Sources` is type-checked against the modules this build made, the way ``ReadmeCompileTests`` checks the
/// README's, with the same reader and the same directives (a `/// <!-- readme: apple-only (UIKit) -->` line before
/// the fence, for example). They show pieces of the app the README tours, so they are compiled as one module with
/// the README's and the articles' blocks, their contexts and `Fixtures/DocCommentContext.swift` (what only the
/// documentation comments use).
@Suite("Documentation comments compile")
struct DocCommentCompileTests {
    /// Every Swift file of `Sources` with a fenced block in its documentation comments, as a path relative to the
    /// package, in a stable order, with its blocks.
    static func documentedSources() throws -> [MarkdownSwiftBlocks] {
        let package = ReadmeCompileTests.packageDirectory
        let sources = package.appendingPathComponent("Sources")
        guard let enumerator = FileManager.default.enumerator(atPath: sources.path) else { return [] }
        var documents: [MarkdownSwiftBlocks] = []
        for case let path as String in enumerator where path.hasSuffix(".swift") {
            let source = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            guard source.contains("```") else { continue }
            let document = try MarkdownSwiftBlocks(documentationCommentsOf: source, name: "Sources/\(path)")
            if !document.blocks.isEmpty { documents.append(document) }
        }
        return documents.sorted { $0.name < $1.name }
    }

    @Test("a documentation comment's blocks keep their file's lines, indentation and directives")
    func documentationCommentBlocks() throws {
        let source = """
            import Foundation

            /// Does a thing.
            ///
            /// ```swift
            /// let thing = Thing()
            ///     .configured()
            /// ```
            struct Thing {
                /// <!-- readme: apple-only (UIKit) -->
                /// ```swift
                ///let view = UIView()
                /// ```
                func configured() -> Thing { self }
                // ```swift
                // not documentation
                // ```
            }
            """
        let document = try MarkdownSwiftBlocks(documentationCommentsOf: source, name: "Thing.swift")
        #expect(
            document.blocks == [
                .init(language: "swift", line: 5, code: ["let thing = Thing()", "    .configured()"], directive: ""),
                .init(language: "swift", line: 11, code: ["let view = UIView()"], directive: "apple-only (UIKit)"),
            ]
        )
        #expect(document.portableSwiftBlocks.count == 1)
    }

    @Test("the documentation comments of Sources hold Swift examples in every library module")
    func examplesAreFound() throws {
        let documents = try Self.documentedSources()
        for module in ["Actuate", "ActuatePlugins", "ActuateTesting", "ActuateReporting", "ActuatePersonalization"] {
            let own = documents.filter { $0.name.hasPrefix("Sources/\(module)/") }
            #expect(own.contains { !$0.portableSwiftBlocks.isEmpty }, "\(module)'s comments show compiled Swift")
        }
        #expect(documents.reduce(0) { $0 + $1.portableSwiftBlocks.count } > 80)
    }

    @Test("only examples on `package` or internal declarations skip the compiler as `package-only`")
    func packageOnlyExamplesDocumentNonPublicDeclarations() throws {
        let readme = try MarkdownSwiftBlocks(markdown: ReadmeCompileTests.readme())
        for document in [readme] + (try DocCArticleCompileTests.articles()) {
            #expect(!document.blocks.contains { $0.directive.hasPrefix("package-only") }, "\(document.name)")
        }
        for document in try Self.documentedSources() {
            let lines = try String(
                contentsOf: ReadmeCompileTests.packageDirectory.appendingPathComponent(document.name),
                encoding: .utf8
            ).components(separatedBy: "\n")
            for block in document.blocks where block.directive.hasPrefix("package-only") {
                // The declaration the comment documents: the first line after it that is not `///` or an attribute.
                let declaration =
                    lines.dropFirst(block.line).first {
                        let line = $0.trimmingCharacters(in: .whitespaces)
                        return !line.hasPrefix("///") && !line.hasPrefix("@")
                    }?.trimmingCharacters(in: .whitespaces) ?? ""
                #expect(
                    !declaration.hasPrefix("public ") && !declaration.hasPrefix("open "),
                    "\(document.name) line \(block.line): an example of a public declaration must compile"
                )
            }
        }
    }

    @Test("every Swift block of every documentation comment type-checks against this build, with the README's app")
    func documentationCommentsTypeCheck() async throws {
        let readme = try MarkdownSwiftBlocks(markdown: ReadmeCompileTests.readme())
        let documents = [readme] + (try DocCArticleCompileTests.articles()) + (try Self.documentedSources())
        for document in documents {
            #expect(document.repeatedBlocksMissing(in: documents) == [])
        }
        var files = MarkdownSwiftBlocks.program(of: documents, imports: ReadmeCompileTests.appImports)
        for context in ["ReadmeContext.swift", "ArticleContext.swift", "DocCommentContext.swift"] {
            files[context] = try ReadmeCompileTests.fixture(context)
        }
        let result = try await SwiftTypeChecker.typeCheck(files)
        #expect(result.status == 0, "The documentation comments' Swift does not compile:\n\(result.diagnostics)")
        // An example often makes a value to show how, and stops there (`let source = try LocalCampaignSource(…)`):
        // the compiler's "never used" warnings ([#no-usage]) are expected here; every other warning fails.
        let warnings = result.diagnostics.components(separatedBy: "\n").filter {
            $0.contains(": warning:") && !$0.contains("[#no-usage]")
        }
        #expect(
            warnings.isEmpty,
            "The documentation comments' Swift compiles with warnings:\n\(warnings.joined(separator: "\n"))"
        )
    }
}
