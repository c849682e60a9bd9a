import Foundation

/// The content blocks of a rules file: the `contentBlocks` array of the JSON object that also holds the
/// rules of the module's other parts, which this reader leaves alone.
///
/// <!-- readme: package-only -->
/// ```swift
/// let rules = try ContentBlockRules(data: Data(json.utf8), name: "rules.json")
/// let problems = ContentBlockRules.validate(contentsOf: rulesFileURL)   // what `actuate validate` prints
/// ```
///
/// Each element is an object with these keys:
/// - `id` (string, required, unique), `name` (string, required), `placeholders` (array of strings, required);
/// - `html` (string, required): the fragment to show;
/// - `type` (string, default `html`), `priority` (integer, default 0), `frequency` (`always`, `onlyOnce`,
///   `oncePerVisit` or `untilVisitorInteracts`, default `always`);
/// - `variant` (object with `id` and optional `name`), `version` (integer ≥ 0, default 0);
/// - `assets` (array of `http` or `https` URLs), `ttlSeconds` (number of seconds from 0.001 to
///   31,536,000, that is 365 days), `hasTrackingConsent` (boolean).
///
/// A missing `contentBlocks` key means no blocks. Problems name the JSON path, such as
/// `$.contentBlocks[1].frequency`, and say what is wrong.
package struct ContentBlockRules: Sendable, Hashable {
    /// The top-level key that holds the blocks.
    package static let key = "contentBlocks"

    /// The blocks, in file order.
    package var blocks: [ContentBlock]

    /// Creates rules in code.
    /// - Parameter blocks: The blocks.
    package init(blocks: [ContentBlock]) {
        self.blocks = blocks
    }

    /// Loads and validates the content blocks of a rules file.
    /// - Parameter url: The file.
    /// - Throws: ``RulesFileError`` naming the file and every problem, with its JSON path.
    package init(contentsOf url: URL) throws(RulesFileError) {
        try self.init(data: RulesFileReader.data(contentsOf: url), name: url.path)
    }

    /// Parses and validates content blocks.
    /// - Parameters:
    ///   - data: The JSON: an object with a `contentBlocks` array.
    ///   - name: What to call the data in errors, such as a file name or a URL.
    /// - Throws: ``RulesFileError`` naming `name` and every problem, with its JSON path.
    package init(data: Data, name: String) throws(RulesFileError) {
        self.blocks = try RulesFileReader.part(of: data, name: name, using: ContentBlockRulesParser.self)
    }

    /// Every problem in the content blocks of a rules file, in document order; empty when they are valid.
    /// - Parameter url: The file.
    /// - Returns: The problems, each with its JSON path.
    package static func validate(contentsOf url: URL) -> [RulesFileProblem] {
        RulesFileReader.problems(contentsOf: url, validate: validate(data:))
    }

    /// Every problem in content blocks given as JSON, in document order; empty when they are valid.
    /// - Parameter data: The JSON: an object with a `contentBlocks` array.
    /// - Returns: The problems, each with its JSON path.
    package static func validate(data: Data) -> [RulesFileProblem] {
        RulesFileReader.problems(in: data, using: ContentBlockRulesParser.self)
    }

    /// The blocks that may appear in a placeholder, in file order.
    /// - Parameter placeholderID: The placeholder's id.
    /// - Returns: The blocks that list it.
    package func blocks(forPlaceholder placeholderID: String) -> [ContentBlock] {
        blocks.filter { $0.placeholders.contains(placeholderID) }
    }
}
