import Actuate
import ActuateReporting
import Foundation
import Synchronization

/// Loads in-app content blocks for the app's placeholders, keeps their display history, and tracks what
/// happens to them through the dispatcher and a `Reporter`.
///
/// ```swift
/// let manager = ContentBlockManager(
///     source: try LocalContentBlockSource(contentsOf: rulesURL),
///     reporter: reporter,
///     directory: supportDirectory.appendingPathComponent("content-blocks")
/// )
/// manager.prefetchPlaceholders(ids: ["home", "home-carousel"])
/// let home = ContentBlockPlaceholder(placeholderID: "home", manager: manager, surface: webView)
/// ```
///
/// - Blocks are cached per placeholder. A block with a time-to-live (personalized content) is fetched again
///   once it has expired on the configuration's clock; others stay until the next prefetch, ``identify(userID:)``
///   or the reporter's `Reporter/reset()`, which also forgets the display history of the previous visitor.
/// - Assets are cached by URL plus the block's content version.
/// - Display and interaction history is kept in `directory` and expires after
///   `ContentBlockConfiguration.historyRetention`.
/// - Every file and network access runs on the configuration's work queue, never on the main queue.
/// - Showing, clicking, closing and errors are performed as actions of `PersonalizationFeature`
///   (`PersonalizationFeature.showContentBlock` and its siblings) in the configuration's session.
public final class ContentBlockManager: Sendable {
    private struct Rows {
        var placeholders: [ContentBlockRow: ContentBlockPlaceholder] = [:]
        /// The row each surface draws for, by the surface's identity, and the reverse. A row's placeholder holds
        /// its surface, so an identifier here never outlives its surface.
        var rowOfSurface: [ObjectIdentifier: ContentBlockRow] = [:]
        var surfaceOfRow: [ContentBlockRow: ObjectIdentifier] = [:]
        var refreshCallback: (@Sendable (ContentBlockRow) -> Void)?

        /// Notes that `row` draws into `surface` now, and returns the row that drew into it until now, if another.
        mutating func assign(_ surface: ObjectIdentifier?, to row: ContentBlockRow) -> ContentBlockRow? {
            if let previous = surfaceOfRow[row], previous != surface, rowOfSurface[previous] == row {
                rowOfSurface[previous] = nil
            }
            surfaceOfRow[row] = surface
            guard let surface else { return nil }
            let holder = rowOfSurface.updateValue(row, forKey: surface)
            guard let holder, holder != row else { return nil }
            surfaceOfRow[holder] = nil
            return holder
        }
    }

    let engine: ContentBlockEngine
    private let rows = Mutex(Rows())

    /// Creates a manager.
    /// - Parameters:
    ///   - source: Where blocks come from: a ``LocalContentBlockSource`` for the rules file, or an
    ///     ``HTTPContentBlockSource``.
    ///   - reporter: Records the events, with consent and sessions (a visit is a reporting session), and
    ///     supplies the identity blocks are personalized for.
    ///   - directory: Where the display history and cached assets are kept.
    ///   - configuration: Clock, queues, session and rules.
    public init(
        source: any ContentBlockSource,
        reporter: Reporter,
        directory: URL,
        configuration: ContentBlockConfiguration = ContentBlockConfiguration()
    ) {
        let engine = ContentBlockEngine(
            source: source,
            reporter: reporter,
            directory: directory,
            configuration: configuration
        )
        self.engine = engine
        reporter.onReset { [weak engine] in engine?.invalidate(clearingHistory: true) }
    }

    /// The manager's configuration.
    var configuration: ContentBlockConfiguration { engine.configuration }

    /// The reporter events are recorded through.
    package var reporter: Reporter { engine.reporter }

    /// Loads the blocks of these placeholders, and the assets they need, so they show at once. Call it at
    /// start-up; the ids are remembered and loaded again after ``identify(userID:)`` and after the reporter's
    /// `Reporter/reset()`.
    /// - Parameter ids: The placeholder ids.
    public func prefetchPlaceholders(ids: [String]) {
        engine.prefetch(ids)
    }

    /// Identifies the user to the reporter, then forgets cached blocks and prefetches them again for the user.
    /// - Parameter userID: The user's id in the app's own system.
    /// - Throws: `ReportingError/invalidUserID` when `userId` is empty.
    public func identify(userID: String) throws(ReportingError) {
        try engine.reporter.identify(userID: userID)
        engine.invalidate(clearingHistory: false)
    }

    /// Returns when every load, download, queue hop and tracking action the manager started has finished.
    /// Surfaces that have not yet finished loading a document are not waited for. Tests use it instead of
    /// sleeping.
    public func waitUntilIdle() async {
        await engine.work.waitUntilIdle()
    }

    /// The most recent problem: a source failure, an unreadable history file.
    package var lastError: ContentBlockError? { engine.lastError }

    // MARK: Tracking

    /// Tracks that `contentBlock` was shown in `placeholderId`, unless the block's server consent says no.
    /// - Parameters:
    ///   - placeholderID: The placeholder.
    ///   - contentBlock: The block.
    public func trackShow(placeholderID: String, contentBlock: ContentBlock) {
        engine.track(ContentBlockEvent(kind: .show, placeholderID: placeholderID, block: contentBlock))
    }

    /// Tracks a click on `action`; a link carrying the force-track parameter is recorded whatever the consent.
    /// - Parameters:
    ///   - placeholderID: The placeholder.
    ///   - contentBlock: The block.
    ///   - link: The link and text clicked.
    public func trackClick(placeholderID: String, contentBlock: ContentBlock, link: ContentBlockLink) {
        let forced = link.forcesTracking(parameter: engine.configuration.forceTrackParameter)
        engine.track(
            ContentBlockEvent(
                kind: .click(link),
                placeholderID: placeholderID,
                block: contentBlock,
                forceTracking: forced
            )
        )
    }

    /// Tracks that `contentBlock` was closed.
    /// - Parameters:
    ///   - placeholderID: The placeholder.
    ///   - contentBlock: The block.
    ///   - userInteraction: Whether the user closed it; false for a timeout or the app's own choice.
    public func trackClose(placeholderID: String, contentBlock: ContentBlock, userInteraction: Bool = true) {
        engine.track(
            ContentBlockEvent(
                kind: .close(userInteraction: userInteraction),
                placeholderID: placeholderID,
                block: contentBlock
            )
        )
    }

    /// Tracks that showing failed.
    /// - Parameters:
    ///   - placeholderID: The placeholder.
    ///   - contentBlock: The block, or nil when no block could be loaded.
    ///   - errorMessage: What went wrong.
    public func trackError(placeholderID: String, contentBlock: ContentBlock?, errorMessage: String) {
        engine.track(
            ContentBlockEvent(kind: .error(message: errorMessage), placeholderID: placeholderID, block: contentBlock)
        )
    }

    /// Tracks a show whatever the consent, tagged `tracking_forced`: for manual tracking the user asked for.
    /// - Parameters:
    ///   - placeholderID: The placeholder.
    ///   - contentBlock: The block.
    public func trackShowWithoutTrackingConsent(placeholderID: String, contentBlock: ContentBlock) {
        engine.track(
            ContentBlockEvent(kind: .show, placeholderID: placeholderID, block: contentBlock, forceTracking: true)
        )
    }

    /// Tracks a click whatever the consent, tagged `tracking_forced`.
    /// - Parameters:
    ///   - placeholderID: The placeholder.
    ///   - contentBlock: The block.
    ///   - link: The link and text clicked.
    public func trackClickWithoutTrackingConsent(
        placeholderID: String,
        contentBlock: ContentBlock,
        link: ContentBlockLink
    ) {
        engine.track(
            ContentBlockEvent(
                kind: .click(link),
                placeholderID: placeholderID,
                block: contentBlock,
                forceTracking: true
            )
        )
    }

    /// Tracks a close whatever the consent, tagged `tracking_forced`.
    /// - Parameters:
    ///   - placeholderID: The placeholder.
    ///   - contentBlock: The block.
    ///   - userInteraction: Whether the user closed it.
    public func trackCloseWithoutTrackingConsent(
        placeholderID: String,
        contentBlock: ContentBlock,
        userInteraction: Bool = true
    ) {
        engine.track(
            ContentBlockEvent(
                kind: .close(userInteraction: userInteraction),
                placeholderID: placeholderID,
                block: contentBlock,
                forceTracking: true
            )
        )
    }

    /// Tracks an error whatever the consent, tagged `tracking_forced`.
    /// - Parameters:
    ///   - placeholderID: The placeholder.
    ///   - contentBlock: The block, or nil.
    ///   - errorMessage: What went wrong.
    public func trackErrorWithoutTrackingConsent(
        placeholderID: String,
        contentBlock: ContentBlock?,
        errorMessage: String
    ) {
        engine.track(
            ContentBlockEvent(
                kind: .error(message: errorMessage),
                placeholderID: placeholderID,
                block: contentBlock,
                forceTracking: true
            )
        )
    }

    // MARK: Rows of tables and lists

    /// Called on the callback queue when the content or height of a row's placeholder changes; reload that row.
    public var refreshCallback: (@Sendable (ContentBlockRow) -> Void)? {
        get { rows.withLock { $0.refreshCallback } }
        set { rows.withLock { $0.refreshCallback = newValue } }
    }

    /// The placeholder for a row of a table or list, created and loaded on first use and the same object
    /// afterwards, so scrolling does not load it again.
    ///
    /// Call it each time a cell is configured for the row, with the surface of that cell: a table reuses cells, so
    /// the row's surface can change between calls. The row then draws into `surface` only: its block is drawn
    /// again there (no new `show` is tracked; the row shows the block it showed), and the row it took `surface`
    /// from stops drawing into it until that row is prepared again. A row with no block blanks a surface it
    /// takes, so a reused cell never shows another row's block.
    ///
    /// <!-- readme: apple-only (UIKit) -->
    /// ```swift
    /// func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
    ///     let cell = tableView.dequeueReusableCell(withIdentifier: "block", for: indexPath) as! BlockCell
    ///     let row = ContentBlockRow(placeholderID: "feed", indexPath: indexPath)
    ///     _ = manager.preparePlaceholder(for: row, surface: cell.webView)
    ///     return cell
    /// }
    /// ```
    /// - Parameters:
    ///   - row: The placeholder id and the row.
    ///   - surface: Where the row shows its block now: the surface of the cell it is given; nil for a custom view
    ///     that draws the block itself.
    /// - Returns: The row's placeholder.
    public func preparePlaceholder(for row: ContentBlockRow, surface: (any HTMLSurface)?) -> ContentBlockPlaceholder {
        // The placeholders are bound while the lock is held, so that two rows prepared at once on threads of their
        // own cannot end up bound in the opposite order to the one recorded. Binding only schedules work.
        rows.withLock { rows -> ContentBlockPlaceholder in
            let displaced = rows.assign(surface.map(ObjectIdentifier.init), to: row).flatMap { rows.placeholders[$0] }
            displaced?.release()
            if let existing = rows.placeholders[row] {
                existing.bind(to: surface)
                return existing
            }
            let placeholder = ContentBlockPlaceholder(
                placeholderID: row.placeholderID,
                deferredLoad: true,
                manager: self,
                surface: surface
            )
            rows.placeholders[row] = placeholder
            placeholder.contentChanged = { [weak self] in
                self?.rows.withLock { $0.refreshCallback }?(row)
            }
            placeholder.reload(blankingSurface: displaced != nil)
            return placeholder
        }
    }

    /// What a row shows now: its block and measured size (for the row's height), or nil when it shows nothing.
    /// - Parameter row: The row.
    /// - Returns: The block and size, or nil.
    public func usedContentBlock(for row: ContentBlockRow) -> ContentBlockUsage? {
        guard let placeholder = rows.withLock({ $0.placeholders[row] }), let block = placeholder.contentBlock else {
            return nil
        }
        return ContentBlockUsage(contentBlock: block, size: placeholder.contentSize)
    }

    /// Forgets every row's placeholder, for when the table's data is replaced.
    public func forgetRows() {
        let old = rows.withLock { rows in
            defer {
                rows.placeholders = [:]
                rows.rowOfSurface = [:]
                rows.surfaceOfRow = [:]
            }
            return Array(rows.placeholders.values)
        }
        for placeholder in old { placeholder.release() }
    }
}
