import ActuateTestSupport
import Foundation
import Testing

/// README.md is code: every ```` ```swift ```` block of the README itself (not a copy) is type-checked against the
/// modules this build made, as a separate module that imports them, the way an app depending on the package
/// does. Statement blocks are top-level code of `main.swift`, where a newcomer tries them first.
@Suite("README compiles")
struct ReadmeCompileTests {
    static let packageDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The modules of the app the snippets live in: each snippet may use any of them, as one app would.
    static let appImports = [
        "Foundation", "Actuate", "ActuateTesting", "ActuateReporting", "ActuatePersonalization",
        "ActuatePersonalizationTesting",
    ]

    static func readme() throws -> String {
        try String(contentsOf: packageDirectory.appendingPathComponent("README.md"), encoding: .utf8)
    }

    /// A file of `Tests/ActuateCLITests/Fixtures`: the app around the snippets.
    static func fixture(_ name: String) throws -> String {
        try String(
            contentsOf: packageDirectory.appendingPathComponent("Tests/ActuateCLITests/Fixtures/\(name)"),
            encoding: .utf8
        )
    }

    @Test("every fence of README.md is closed, and no heading sits inside a code block")
    func fencesBalance() throws {
        let document = try MarkdownSwiftBlocks(markdown: Self.readme())
        #expect(document.blocks.count > 10)
        let setUp = try #require(document.blocks.first)
        #expect(setUp.code.contains { $0.hasPrefix("swift run shop-demo") }, "the first block runs the demo")
        #expect(setUp.code.contains { $0.hasPrefix("swift test") }, "the first block runs the tests")
    }

    @Test("an unclosed fence and a heading swallowed by a block are reported with their lines")
    func fenceErrors() {
        #expect(throws: MarkdownSwiftBlocks.FenceError(line: 2, problem: "the block opened here is never closed")) {
            try MarkdownSwiftBlocks(markdown: "text\n```sh\n.ci/docs\n")
        }
        #expect(
            throws: MarkdownSwiftBlocks.FenceError(line: 4, problem: "a heading inside the block opened at line 1")
        ) {
            try MarkdownSwiftBlocks(markdown: "```sh\n.ci/docs\n\n## Personalization\n```\n")
        }
    }

    @Test("blocks of declarations become files; statement blocks become top-level code; directives are obeyed")
    func programShape() throws {
        let markdown = """
            ```swift
            import Actuate
            final class A {}
            ```
            <!-- readme: in extension A -->
            ```swift
            static func make() -> A { A() }
            ```
            ```swift
            let a = A.make()
            ```
            <!-- readme: apple-only (UIKit) -->
            ```swift
            import UIKit
            ```
            """
        let files = try MarkdownSwiftBlocks(markdown: markdown).program(imports: ["Foundation"])
        #expect(files["Block0.swift"] == "import Foundation\nimport Actuate\n// README.md line 1\nfinal class A {}\n")
        #expect(files["Block1.swift"]?.hasSuffix("extension A {\nstatic func make() -> A { A() }\n}\n") == true)
        #expect(files["main.swift"]?.hasSuffix("// README.md line 9\ndo {\nlet a = A.make()\n}\n") == true)
        #expect(files.values.allSatisfy { !$0.contains("UIKit") })
    }

    @Test("every Swift block of README.md type-checks against this build, in top-level code and in files")
    func readmeTypeChecks() async throws {
        let document = try MarkdownSwiftBlocks(markdown: Self.readme())
        var files = document.program(imports: Self.appImports)
        files["ReadmeContext.swift"] = try Self.fixture("ReadmeContext.swift")
        let result = try await SwiftTypeChecker.typeCheck(files)
        #expect(result.status == 0, "README.md's Swift does not compile:\n\(result.diagnostics)")
        let warnings = result.diagnostics.components(separatedBy: "\n").filter { $0.contains(": warning:") }
        #expect(warnings.isEmpty, "README.md's Swift compiles with warnings:\n\(warnings.joined(separator: "\n"))")
    }

    @Test("`await binding.perform(…)` returns the outcome in top-level code, as in a function")
    func awaitReturnsTheOutcomeAtTopLevel() async throws {
        let action = """
            import Actuate
            final class PingAction: Action {
                typealias InputType = String
                static func perform(context: ActionContext<String>, presenter: Void, completion: Completion)
                    -> Completion.Status { completion.completedSync(.success) }
            }
            final class PingFeature: Feature {
                static let ping = action(PingAction.self)
                static func prepare(actions: FeatureActionsBuilder) { actions.publish(ping) }
            }
            func inAFunction() async -> ActionOutcome {
                await PingFeature.ping.perform(input: "a", presenter: ())
            }

            """
        let topLevel = """
            import Actuate
            let outcome = await PingFeature.ping.perform(input: "a", presenter: ())
            let typed: ActionOutcome = outcome
            print(typed.isSuccess, await inAFunction().isSuccess)
            PingFeature.ping.perform(input: "b", presenter: ()) { print($0.isSuccess) }
            PingFeature.ping.perform(input: "c", presenter: (), completion: nil)

            """
        let result = try await SwiftTypeChecker.typeCheck(["Ping.swift": action, "main.swift": topLevel])
        #expect(result.status == 0, "\(result.diagnostics)")
        #expect(!result.diagnostics.contains("warning:"), "\(result.diagnostics)")
    }
}
