import Foundation

/// What a ``ContentBlockPlaceholder`` tells the app, and what tracks events in the default behaviour.
///
/// Every method is called on the manager's callback queue. To add behaviour, wrap the placeholder's current
/// callback and call through to it:
///
/// ```swift
/// struct HidingCallback: ContentBlockCallback {
///     let original: any ContentBlockCallback
///     let hide: @Sendable (Bool) -> Void
///
///     func onMessageShown(placeholderId: String, contentBlock: ContentBlock) {
///         original.onMessageShown(placeholderId: placeholderId, contentBlock: contentBlock)
///         hide(false)
///     }
///     func onNoMessageFound(placeholderId: String) {
///         original.onNoMessageFound(placeholderId: placeholderId)
///         hide(true)
///     }
///     func onError(placeholderId: String, contentBlock: ContentBlock?, errorMessage: String) {
///         original.onError(placeholderId: placeholderId, contentBlock: contentBlock, errorMessage: errorMessage)
///     }
///     func onCloseClicked(placeholderId: String, contentBlock: ContentBlock) {
///         original.onCloseClicked(placeholderId: placeholderId, contentBlock: contentBlock)
///     }
///     func onActionClicked(placeholderId: String, contentBlock: ContentBlock, action: ContentBlockAction) {
///         original.onActionClicked(placeholderId: placeholderId, contentBlock: contentBlock, action: action)
///     }
/// }
/// ```
public protocol ContentBlockCallback: Sendable {
    /// A block was shown: its content and assets loaded and the surface displayed it.
    /// - Parameters:
    ///   - placeholderId: The placeholder.
    ///   - contentBlock: The block shown.
    func onMessageShown(placeholderId: String, contentBlock: ContentBlock)

    /// No block may be shown in the placeholder now.
    /// - Parameter placeholderId: The placeholder.
    func onNoMessageFound(placeholderId: String)

    /// Loading or showing failed.
    /// - Parameters:
    ///   - placeholderId: The placeholder.
    ///   - contentBlock: The block that failed, or nil when no block could be loaded at all.
    ///   - errorMessage: What went wrong.
    func onError(placeholderId: String, contentBlock: ContentBlock?, errorMessage: String)

    /// The user clicked the block's close element.
    /// - Parameters:
    ///   - placeholderId: The placeholder.
    ///   - contentBlock: The block closed.
    func onCloseClicked(placeholderId: String, contentBlock: ContentBlock)

    /// The user clicked an action in the block.
    /// - Parameters:
    ///   - placeholderId: The placeholder.
    ///   - contentBlock: The block clicked.
    ///   - action: The link and text clicked.
    func onActionClicked(placeholderId: String, contentBlock: ContentBlock, action: ContentBlockAction)
}

/// The default behaviour: tracks `show`, `click`, `close` and `error` through the manager, and opens clicked
/// links through the configuration's router when it answers them, otherwise with its ``ContentBlockURLOpener``;
/// a link that nothing opens is reported as ``ContentBlockError/linkNotOpened(url:reason:)``.
///
/// A click whose link carries the force-track parameter (`xnpe_force_track=true`) is recorded whatever the
/// consent, tagged `tracking_forced`.
struct ContentBlockDefaultCallback: ContentBlockCallback {
    private let engine: ContentBlockEngine

    /// Creates the default behaviour of `manager`'s placeholders.
    /// - Parameter manager: The manager that tracks and opens links.
    init(manager: ContentBlockManager) {
        engine = manager.engine
    }

    init(engine: ContentBlockEngine) {
        self.engine = engine
    }

    /// Tracks `show`.
    func onMessageShown(placeholderId: String, contentBlock: ContentBlock) {
        engine.track(ContentBlockEvent(kind: .show, placeholderId: placeholderId, block: contentBlock))
    }

    /// Does nothing: there is nothing to track.
    func onNoMessageFound(placeholderId: String) {}

    /// Tracks `error` with the message; without a block, as a `content_block_error` event.
    func onError(placeholderId: String, contentBlock: ContentBlock?, errorMessage: String) {
        engine.track(
            ContentBlockEvent(kind: .error(message: errorMessage), placeholderId: placeholderId, block: contentBlock)
        )
    }

    /// Tracks `close` as the user's.
    func onCloseClicked(placeholderId: String, contentBlock: ContentBlock) {
        engine.track(
            ContentBlockEvent(kind: .close(userInteraction: true), placeholderId: placeholderId, block: contentBlock)
        )
    }

    /// Tracks `click` (forced when the link asks for it) and opens the link: through the router, else with the
    /// opener; when neither can, the manager's `onError` gets ``ContentBlockError/linkNotOpened(url:reason:)``.
    func onActionClicked(placeholderId: String, contentBlock: ContentBlock, action: ContentBlockAction) {
        let forced = action.forcesTracking(parameter: engine.configuration.forceTrackParameter)
        engine.track(
            ContentBlockEvent(
                kind: .click(action),
                placeholderId: placeholderId,
                block: contentBlock,
                forceTracking: forced
            )
        )
        engine.open(action.url)
    }
}
