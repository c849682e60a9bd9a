import ActuateReporting
import Foundation

/// Where a ``ContentBlockManager`` gets its content blocks: the local rules file by default
/// (``LocalContentBlockSource``), or a server (``HTTPContentBlockSource``).
///
/// It has the shape of the other two sources of the module, `DecisionSource` and `CampaignSource`: one
/// `async throws` requirement that answers each request once, by returning or throwing.
///
/// Implementation requirements:
/// - Return every block that lists at least one of the requested placeholders; blocks for other placeholders
///   may be included and are ignored.
/// - Report problems by throwing, never by crashing: a ``ContentBlockError`` reaches the configuration's
///   `onError` as it is, and any other error as ``ContentBlockError/sourceFailed(source:reason:)``. A source that
///   cannot answer leaves the manager's cache as it was.
/// - The manager calls ``loadBlocks(placeholderIDs:identity:)`` from a task of its own, never on the main queue
///   or the main actor, so a source may read files there.
///
/// A source of your own composes the others, for example the server with the bundled rules as a fallback:
///
/// ```swift
/// struct ServerWithFallback: ContentBlockSource {
///     let server: HTTPContentBlockSource
///     let bundled: LocalContentBlockSource
///
///     func loadBlocks(placeholderIDs: [String], identity: StoredIdentity) async throws -> [ContentBlock] {
///         do {
///             return try await server.loadBlocks(placeholderIDs: placeholderIDs, identity: identity)
///         } catch {
///             return try await bundled.loadBlocks(placeholderIDs: placeholderIDs, identity: identity)
///         }
///     }
/// }
/// ```
public protocol ContentBlockSource: Sendable {
    /// Loads the blocks for some placeholders.
    /// - Parameters:
    ///   - placeholderIDs: The placeholders to load blocks for.
    ///   - identity: Who the blocks are for, so a server can personalize them.
    /// - Returns: The blocks that list at least one of the placeholders.
    /// - Throws: A ``ContentBlockError`` saying why there are none, or any other error.
    func loadBlocks(placeholderIDs: [String], identity: StoredIdentity) async throws -> [ContentBlock]
}

/// Why a content block could not be loaded or shown.
public enum ContentBlockError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The blocks' JSON is malformed: every problem, with its JSON path.
    case invalidRules(RulesFileError)
    /// The source could not be reached or answered with a failure.
    case sourceFailed(source: String, reason: String)
    /// An asset the block needs could not be downloaded.
    case assetFailed(url: String, reason: String)
    /// The surface could not show the block's document.
    case renderFailed(reason: String)
    /// The block's page posted a message that is not a click or a close the manager accepts.
    case invalidMessage(reason: String)
    /// The display history could not be read or written.
    case historyFailed(path: String, reason: String)
    /// A link the user clicked was tracked, but nothing opened it: no router answers it and there is no
    /// `ContentBlockConfiguration.urlOpener`, or the router could not route it.
    case linkNotOpened(url: String, reason: String)

    /// What went wrong, in words a person can act on.
    public var description: String {
        switch self {
        case .invalidRules(let error):
            return "the content blocks are invalid: \(error)"
        case .sourceFailed(let source, let reason):
            return "the content blocks could not be loaded from \(source): \(reason)"
        case .assetFailed(let url, let reason):
            return "the asset \(url) could not be loaded: \(reason)"
        case .renderFailed(let reason):
            return "the content block could not be shown: \(reason)"
        case .invalidMessage(let reason):
            return "the content block's page posted an unusable message: \(reason)"
        case .historyFailed(let path, let reason):
            return "the content block history at \(path) could not be used: \(reason)"
        case .linkNotOpened(let url, let reason):
            return "the clicked link \(url.prefix(200)) was not opened: \(reason)"
        }
    }
}
