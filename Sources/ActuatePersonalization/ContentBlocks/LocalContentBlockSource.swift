import ActuateReporting
import Foundation

/// The embedded default ``ContentBlockSource``: the `contentBlocks` array of a local rules file.
///
/// The file is read and validated when the source is made, as ``LocalCampaignSource`` reads its campaigns: a file
/// that cannot be read or is invalid is refused there, with a ``RulesFileError`` naming the file and every
/// problem with its JSON path, so a bad file never reaches a manager, a placeholder or an event.
///
/// ```swift
/// let source = try LocalContentBlockSource(contentsOf: rulesURL)
/// ```
public struct LocalContentBlockSource: ContentBlockSource {
    /// The blocks it answers from.
    package let rules: ContentBlockRules

    /// Reads and validates a rules file and creates a source from its `contentBlocks` array.
    ///
    /// The file is read on the calling thread; it is small and bundled with the app, as a campaign rules file is.
    /// - Parameter url: The rules file.
    /// - Throws: ``RulesFileError`` naming the file and every problem with its JSON path.
    public init(contentsOf url: URL) throws(RulesFileError) {
        rules = try ContentBlockRules(contentsOf: url)
    }

    /// Creates a source from rules already in memory; parsing does no I/O, so this may run anywhere.
    /// - Parameters:
    ///   - data: The rules file's JSON.
    ///   - name: What to call the data in errors.
    /// - Throws: ``RulesFileError`` with every problem and its JSON path.
    public init(data: Data, name: String) throws(RulesFileError) {
        rules = try ContentBlockRules(data: data, name: name)
    }

    /// Creates a source from blocks built in code.
    /// - Parameter rules: The blocks.
    package init(rules: ContentBlockRules) {
        self.rules = rules
    }

    /// The blocks of the rules that list at least one of `placeholderIDs`; it never throws.
    /// - Parameters:
    ///   - placeholderIDs: The placeholders to load blocks for.
    ///   - identity: Who the blocks are for; the local rules are the same for everyone.
    /// - Returns: The matching blocks, in the file's order.
    public func loadBlocks(placeholderIDs: [String], identity: StoredIdentity) async throws -> [ContentBlock] {
        let wanted = Set(placeholderIDs)
        return rules.blocks.filter { !wanted.isDisjoint(with: $0.placeholders) }
    }
}
