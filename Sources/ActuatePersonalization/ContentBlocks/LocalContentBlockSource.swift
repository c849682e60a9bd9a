import ActuateReporting
import Foundation
import Synchronization

/// The embedded default ``ContentBlockSource``: the `contentBlocks` array of a local rules file.
///
/// The file is read and validated the first time blocks are asked for, on the manager's work queue, and kept;
/// a file that cannot be read or is invalid is reported on every request as a ``ContentBlockError``, with
/// each problem's JSON path, and read again on the next one.
///
/// ```swift
/// let source = LocalContentBlockSource(contentsOf: Bundle.main.url(forResource: "rules", withExtension: "json")!)
/// ```
public final class LocalContentBlockSource: ContentBlockSource {
    private enum Origin {
        case file(URL)
        case rules(ContentBlockRules)
    }

    private let origin: Origin
    private let loaded = Mutex<ContentBlockRules?>(nil)

    /// Creates a source that reads a rules file when blocks are first asked for.
    /// - Parameter url: The rules file.
    public init(contentsOf url: URL) {
        origin = .file(url)
    }

    /// Creates a source from rules already in memory; parsing does no I/O, so this may run anywhere.
    /// - Parameters:
    ///   - data: The rules file's JSON.
    ///   - name: What to call the data in errors.
    /// - Throws: ``RulesFileError`` with every problem and its JSON path.
    public init(data: Data, name: String) throws(RulesFileError) {
        origin = .rules(try ContentBlockRules(data: data, name: name))
    }

    /// Creates a source from blocks built in code.
    /// - Parameter rules: The blocks.
    package init(rules: ContentBlockRules) {
        origin = .rules(rules)
    }

    public func loadBlocks(
        placeholderIDs: [String],
        identity: StoredIdentity,
        completion: @escaping @Sendable (Result<[ContentBlock], ContentBlockError>) -> Void
    ) {
        let wanted = Set(placeholderIDs)
        completion(rules().map { rules in rules.blocks.filter { !wanted.isDisjoint(with: $0.placeholders) } })
    }

    private func rules() -> Result<ContentBlockRules, ContentBlockError> {
        switch origin {
        case .rules(let rules):
            return .success(rules)
        case .file(let url):
            if let rules = loaded.withLock({ $0 }) { return .success(rules) }
            do throws(RulesFileError) {
                let rules = try ContentBlockRules(contentsOf: url)
                loaded.withLock { $0 = rules }
                return .success(rules)
            } catch {
                return .failure(.invalidRules(error))
            }
        }
    }
}
