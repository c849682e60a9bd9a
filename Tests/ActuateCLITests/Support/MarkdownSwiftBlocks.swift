import Foundation

/// The fenced code blocks of a Markdown document, and the Swift program its ```` ```swift ```` blocks make.
///
/// A Swift block may be preceded by one HTML comment (invisible when the page renders, in the README and in DocC
/// articles alike) that says how to compile it:
/// - `<!-- readme: apple-only (Framework) -->`: the block needs an Apple framework and is not compiled here.
/// - `<!-- readme: package-only -->`: in a `///` comment of a `package` or internal declaration only, the block
///   uses what an app cannot reach, so it is not compiled as an app's code (the README and the articles have none).
/// - `<!-- readme: in extension SaveNoteAction -->`: the block is a member fragment, compiled inside
///   `extension SaveNoteAction { … }`.
/// - `<!-- readme: repeats README.md -->`: the block repeats, line for line, a block that another document of the
///   same program declares, so it is not compiled twice; ``repeatedBlocksMissing(in:)`` checks that it does.
/// - `<!-- readme: from Examples/NotesApp/Sources/NotesKit/NotesActions.swift -->`: the block is taken, line for
///   line, from a file of an example package, which `.ci/run` builds and tests as its own package;
///   ``exampleBlocksMissing(packageDirectory:)`` checks that the file holds it.
///
/// Blocks that hold only declarations (types, functions, `@Test` functions, imports) are compiled as files of one
/// module, so later blocks use what earlier ones declared. Blocks with statements become top-level code in
/// `main.swift`, each in a `do { }` of its own, in document order: the way a newcomer's `main.swift` would run them.
struct MarkdownSwiftBlocks {
    /// One fenced block.
    struct Block: Equatable {
        /// The info string after the opening fence (`swift`, `sh`, `json`, or empty).
        var language: String
        /// The 1-based line of the opening fence.
        var line: Int
        /// The lines between the fences.
        var code: [String]
        /// The directive of the comment right before the fence, without `readme:`; empty when there is none.
        var directive: String
    }

    /// A structural defect of the document.
    struct FenceError: Error, Equatable, CustomStringConvertible {
        var line: Int
        var problem: String
        var description: String { "line \(line): \(problem)" }
    }

    var blocks: [Block] = []

    /// The document's name in the markers of the program, such as `README.md`.
    var name = "README.md"

    /// Splits `markdown` into its fenced blocks.
    ///
    /// - Throws: ``FenceError`` when a fence is never closed, or a Markdown heading of level 2 or more sits inside
    ///   a code block (the sign of a fence closed too late; a level-1 `# ` line is a shell comment).
    init(markdown: String, name: String = "README.md") throws {
        self.name = name
        let lines = markdown.components(separatedBy: "\n")
        var open: Block?
        var lastTextLine = ""
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var block = open {
                if trimmed == "```" {
                    blocks.append(block)
                    open = nil
                } else if trimmed.hasPrefix("```") {
                    throw FenceError(
                        line: index + 1,
                        problem: "a fence opens inside the block opened at line \(block.line)"
                    )
                } else {
                    if line.range(of: #"^#{2,6} "#, options: .regularExpression) != nil {
                        throw FenceError(
                            line: index + 1,
                            problem: "a heading inside the block opened at line \(block.line)"
                        )
                    }
                    block.code.append(line)
                    open = block
                }
                continue
            }
            if trimmed.hasPrefix("```") {
                let language = String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces)
                open = Block(language: language, line: index + 1, code: [], directive: Self.directive(in: lastTextLine))
            }
            if !trimmed.isEmpty { lastTextLine = trimmed }
        }
        if let block = open {
            throw FenceError(line: block.line, problem: "the block opened here is never closed")
        }
    }

    /// The fenced blocks of the `///` documentation comments of a Swift source file, with the lines of the file.
    ///
    /// Each `///` line becomes a Markdown line without its `///` and the one space after it; every other line of
    /// the file becomes an empty line, so a block's ``Block/line`` is its opening fence's line in the file. A block
    /// is preceded by a `/// <!-- readme: … -->` line to take a directive, as in the README.
    ///
    /// - Parameters:
    ///   - swiftSource: The contents of the Swift file.
    ///   - name: The file's path in the markers of the program, such as `Sources/Actuate/Actions/Action.swift`.
    /// - Throws: ``FenceError`` as ``init(markdown:name:)`` does.
    init(documentationCommentsOf swiftSource: String, name: String) throws {
        let lines = swiftSource.components(separatedBy: "\n").map { line -> String in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("///") else { return "" }
            let text = trimmed.dropFirst(3)
            return String(text.hasPrefix(" ") ? text.dropFirst() : text)
        }
        try self.init(markdown: lines.joined(separator: "\n"), name: name)
    }

    /// The directive of a `<!-- readme: … -->` comment, or an empty string.
    private static func directive(in line: String) -> String {
        guard line.hasPrefix("<!--"), line.hasSuffix("-->") else { return "" }
        let body = line.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
        guard body.hasPrefix("readme:") else { return "" }
        return body.dropFirst("readme:".count).trimmingCharacters(in: .whitespaces)
    }

    /// The Swift blocks to compile on this platform: those not marked `apple-only`, `package-only` or `repeats`.
    var portableSwiftBlocks: [Block] {
        blocks.filter {
            $0.language == "swift" && !$0.directive.hasPrefix("apple-only") && !$0.directive.hasPrefix("repeats ")
                && !$0.directive.hasPrefix("package-only") && !$0.directive.hasPrefix("from ")
        }
    }

    /// The source files of one module made from the Swift blocks: file name to contents.
    ///
    /// - Parameter imports: Modules every file imports, besides those the blocks import.
    func program(imports: [String]) -> [String: String] {
        Self.program(of: [self], imports: imports)
    }

    /// The source files of one module made from the Swift blocks of several documents, in order: file name to
    /// contents. Later documents may use what earlier ones declare, as the articles of a package use its README's.
    ///
    /// - Parameter imports: Modules every file imports, besides those the blocks import.
    static func program(of documents: [MarkdownSwiftBlocks], imports: [String]) -> [String: String] {
        let blocks = documents.flatMap { document in document.portableSwiftBlocks.map { (document.name, $0) } }
        var modules = imports
        for (_, block) in blocks {
            for line in block.code where line.hasPrefix("import ") {
                let module = String(line.dropFirst("import ".count)).trimmingCharacters(in: .whitespaces)
                if !modules.contains(module) { modules.append(module) }
            }
        }
        let header = modules.map { "import \($0)" }.joined(separator: "\n") + "\n"
        var files: [String: String] = [:]
        var main = header
        for (index, (name, block)) in blocks.enumerated() {
            let body = block.code.filter { !$0.hasPrefix("import ") }
            let marker = "// \(name) line \(block.line)"
            if block.directive.hasPrefix("in ") {
                let container = block.directive.dropFirst(3)
                files["Block\(index).swift"] =
                    "\(header)\(marker)\n\(container) {\n\(body.joined(separator: "\n"))\n}\n"
            } else if Self.holdsOnlyDeclarations(body) {
                files["Block\(index).swift"] = "\(header)\(marker)\n\(body.joined(separator: "\n"))\n"
            } else {
                main += "\(marker)\ndo {\n\(body.joined(separator: "\n"))\n}\n"
            }
        }
        files["main.swift"] = main
        return files
    }

    /// The blocks marked `repeats DOCUMENT` whose lines are not found, in order and unchanged, in a compiled
    /// Swift block of that document among `documents`; each is described with its document and line.
    func repeatedBlocksMissing(in documents: [MarkdownSwiftBlocks]) -> [String] {
        blocks.filter { $0.language == "swift" && $0.directive.hasPrefix("repeats ") }.compactMap { block in
            let source = block.directive.dropFirst("repeats ".count).trimmingCharacters(in: .whitespaces)
            let text = block.code.joined(separator: "\n")
            let found = documents.contains { document in
                document.name.hasSuffix(source)
                    && document.portableSwiftBlocks.contains { $0.code.joined(separator: "\n").contains(text) }
            }
            return found ? nil : "\(name) line \(block.line): no Swift block of \(source) holds this block's lines"
        }
    }

    /// The blocks marked `from PATH` whose lines are not found, in order and unchanged, in the file at `PATH`
    /// (relative to `packageDirectory`); each is described with its document and line.
    func exampleBlocksMissing(packageDirectory: URL) -> [String] {
        blocks.filter { $0.directive.hasPrefix("from ") }.compactMap { block in
            let path = block.directive.dropFirst("from ".count).trimmingCharacters(in: .whitespaces)
            let file = packageDirectory.appendingPathComponent(path)
            guard let text = try? String(contentsOf: file, encoding: .utf8) else {
                return "\(name) line \(block.line): there is no file \(path)"
            }
            let found = text.contains(block.code.joined(separator: "\n") + "\n")
            return found ? nil : "\(name) line \(block.line): \(path) does not hold this block's lines"
        }
    }

    /// Whether every line that starts at the left margin begins a declaration.
    static func holdsOnlyDeclarations(_ lines: [String]) -> Bool {
        let declarationStarts = [
            "import ", "protocol ", "final ", "class ", "struct ", "enum ", "extension ", "func ", "actor ",
            "typealias ", "@", "public ", "private ", "fileprivate ", "internal ", "nonisolated ", "//", "}", ")", "]",
        ]
        return lines.allSatisfy { line in
            guard let first = line.first, !first.isWhitespace else { return true }
            return declarationStarts.contains { line.hasPrefix($0) }
        }
    }
}
