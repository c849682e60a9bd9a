import Actuate
import Foundation
import Synchronization

/// A place in the app's UI where content blocks appear: it picks the block to show, loads its content and
/// assets off the main queue, shows it on an ``HTMLSurface`` and reports what happens through its
/// ``behaviourCallback``.
///
/// ```swift
/// let placeholder = ContentBlockPlaceholder(placeholderID: "home", deferredLoad: true, manager: manager,
///                                           surface: webView)
/// placeholder.contentReadyCompletion = { (loaded: Bool) in
///     // loaded: show the view at placeholder.contentSize; otherwise hide it
/// }
/// placeholder.reload()
/// ```
///
/// A block counts as shown, and `show` is tracked, only once its content and assets have loaded and the
/// surface has displayed it. Without a surface (a custom view that draws the block itself) it counts as
/// shown once its content and assets have loaded. A clicked close element hides the block for the rest of
/// this placeholder's life, until ``reload()``, and the next eligible block, if any, takes its place.
///
/// With a ``ContentBlockCarousel`` the placeholder rotates through the eligible blocks in display order on the
/// manager's clock, tracking a `show` for each block it displays.
public final class ContentBlockPlaceholder: Sendable {
    /// Where the placeholder draws its block.
    private enum Drawing {
        /// Into this surface.
        case surface(any HTMLSurface)
        /// Nowhere: the app draws the block itself, and it counts as shown once loaded.
        case byApp
        /// Nowhere until the manager binds it again: its table row's surface was given to another row.
        case released
    }

    /// What binding to a new surface has to do.
    private enum Rebinding {
        /// Draw the block shown now on the new surface.
        case redraw(ContentBlock)
        /// Blank the new surface, then pick and load a block again: loading was under way.
        case reload
        /// Blank the new surface: the placeholder shows nothing.
        case blank
    }

    private struct State {
        var drawing: Drawing
        var generation = 0
        /// Whether a block is being picked or loaded for `generation`, not yet shown or failed.
        var loading = false
        var current: ContentBlock?
        var size: HTMLContentSize?
        var closed: Set<String> = []
        var tick: ScheduledWork?
        var callback: any ContentBlockCallback
        var readyCompletion: (@Sendable (Bool) -> Void)?
        var contentChanged: (@Sendable () -> Void)?
        var errorLimit = BridgeErrorLimit()
    }

    private enum Failure {
        case noMessage
        case error(ContentBlock?, String)
    }

    /// The placeholder's id, which blocks list in their `placeholders`.
    public let placeholderID: String
    /// How the placeholder rotates, or nil for a placeholder that shows one block.
    package let carousel: ContentBlockCarousel?
    let engine: ContentBlockEngine
    private let state: Mutex<State>

    /// Creates a placeholder.
    /// - Parameters:
    ///   - placeholderID: The placeholder's id.
    ///   - deferredLoad: When true, nothing loads until ``reload()``; set the callbacks first. When false,
    ///     loading starts now.
    ///   - manager: The manager whose blocks, history and tracking the placeholder uses.
    ///   - surface: Where the block's HTML is shown; nil for a custom view that draws the block itself.
    ///   - carousel: How to rotate through the eligible blocks, or nil to show one.
    public init(
        placeholderID: String,
        deferredLoad: Bool = false,
        manager: ContentBlockManager,
        surface: (any HTMLSurface)? = nil,
        carousel: ContentBlockCarousel? = nil
    ) {
        self.placeholderID = placeholderID
        self.carousel = carousel
        self.engine = manager.engine
        self.state = Mutex(
            State(
                drawing: surface.map(Drawing.surface) ?? .byApp,
                callback: ContentBlockDefaultCallback(engine: manager.engine)
            )
        )
        if !deferredLoad { reload() }
    }

    deinit {
        state.withLock { $0.tick }?.cancel()
    }

    /// What the placeholder tells the app; the default tracks events and opens links
    /// (`ContentBlockDefaultCallback`). Wrap the current value to add behaviour and keep the tracking.
    public var behaviourCallback: any ContentBlockCallback {
        get { state.withLock { $0.callback } }
        set { state.withLock { $0.callback = newValue } }
    }

    /// Called on the callback queue with true once a block is shown (read ``contentSize`` then), and with false
    /// when no block applies, loading failed, or the shown block was closed with nothing to replace it.
    public var contentReadyCompletion: (@Sendable (Bool) -> Void)? {
        get { state.withLock { $0.readyCompletion } }
        set { state.withLock { $0.readyCompletion = newValue } }
    }

    /// The block shown now, if any.
    public var contentBlock: ContentBlock? { state.withLock { $0.current } }

    /// The measured size of the block shown now, when the surface could measure it.
    public var contentSize: HTMLContentSize? { state.withLock { $0.size } }

    /// How many refused bridge messages the placeholder did not report, over its life.
    ///
    /// A message the shown document posts that is not a valid click or close (not JSON, without the document's
    /// token, a link with a scheme that is not allowed) is reported through the behaviour callback's
    /// ``ContentBlockCallback/onError(placeholderID:contentBlock:errorMessage:)``, and so as an `error` event, once
    /// per block and page view (each document the placeholder shows); the others are only counted here, so a page
    /// that floods the bridge cannot flood the event store.
    public var droppedErrorCount: Int { state.withLock { $0.errorLimit.dropped } }

    /// Picks and shows a block again: the frequency rules are applied afresh and closed blocks may return.
    public func reload() {
        reload(blankingSurface: false)
    }

    /// Like ``reload()``; with `blankingSurface`, first blanks the surface, which shows another row's block.
    func reload(blankingSurface: Bool) {
        let (generation, surface) = state.withLock { state -> (Int, (any HTMLSurface)?) in
            let generation = Self.restart(&state, clearingClosed: true)
            guard blankingSurface, case .surface(let surface) = state.drawing else { return (generation, nil) }
            return (generation, surface)
        }
        if let surface { blank(surface, generation) }
        load(generation, previous: nil, rotating: false)
    }

    /// Reports a click on `linkURL` in the shown block, for custom views that draw the block themselves:
    /// the behaviour callback's ``ContentBlockCallback/onLinkClicked(placeholderID:contentBlock:link:)``
    /// runs as if the user had clicked the link in the block's page.
    /// - Parameters:
    ///   - linkURL: The link clicked; its scheme must be allowed by the configuration.
    ///   - text: The clicked element's text; by default the text of the block's link to `linkURL`.
    public func invokeLinkClick(linkURL: String, text: String? = nil) {
        engine.onCallbackQueue {
            let (block, callback) = self.state.withLock { ($0.current, $0.callback) }
            guard let block else {
                let message = "invokeLinkClick(linkURL:text:) was called while no content block is shown"
                callback.onError(placeholderID: self.placeholderID, contentBlock: nil, errorMessage: message)
                return
            }
            do throws(ContentBlockError) {
                let action = try ContentBlockLink(
                    checking: linkURL,
                    text: text ?? ContentBlockDocument.linkText(for: linkURL, in: block),
                    allowedSchemes: self.engine.configuration.allowedLinkSchemes
                )
                self.clicked(action, in: block, callback: callback)
            } catch {
                callback.onError(
                    placeholderID: self.placeholderID,
                    contentBlock: block,
                    errorMessage: error.description
                )
            }
        }
    }

    /// Hides the shown block without the user asking (a timeout, or the app's own choice): tracks `close` with
    /// `interaction` false and reports not ready. The history does not count it as an interaction.
    public func dismiss() {
        engine.onCallbackQueue {
            let (block, notify) = self.state.withLock { state -> (ContentBlock?, [@Sendable () -> Void]) in
                state.generation += 1
                state.loading = false
                state.tick?.cancel()
                guard let block = state.current else { return (nil, []) }
                state.current = nil
                state.size = nil
                return (block, Self.readyNotifications(state, false))
            }
            guard let block else { return }
            self.engine.track(
                ContentBlockEvent(kind: .close(userInteraction: false), placeholderID: self.placeholderID, block: block)
            )
            for notification in notify { notification() }
        }
    }

    /// Stops loading and rotating; the shown block stays as it is until ``reload()``.
    public func stop() {
        state.withLock { state in
            state.generation += 1
            state.loading = false
            state.tick?.cancel()
            state.tick = nil
        }
    }

    // MARK: Rows of tables and lists

    /// Moves the placeholder to `surface` (nil: the app draws the block), as a table row moves to the cell it is
    /// given now. Nothing is drawn into the previous surface any more, and its page's messages are ignored. The
    /// block shown now is drawn again on `surface`, without a new `show` or history entry (the row shows the block
    /// it already showed); a load under way starts again for `surface`; with no block, `surface` is blanked, so it
    /// does not keep showing another row's block. Binding to the surface it has does nothing.
    func bind(to surface: (any HTMLSurface)?) {
        let work = state.withLock { state -> (Rebinding, Int)? in
            switch (state.drawing, surface) {
            case (.surface(let bound), let surface?) where bound === surface: return nil
            case (.byApp, nil): return nil
            default: break
            }
            state.drawing = surface.map(Drawing.surface) ?? .byApp
            let generation = Self.restart(&state, clearingClosed: false)
            if let block = state.current, !state.closed.contains(block.id) { return (.redraw(block), generation) }
            return (state.loading ? .reload : .blank, generation)
        }
        guard let (rebinding, generation) = work else { return }
        switch rebinding {
        case .redraw(let block):
            loadAssets(of: block, generation, redrawing: true)
        case .reload:
            if let surface { blank(surface, generation) }
            load(generation, previous: nil, rotating: false)
        case .blank:
            if let surface { blank(surface, generation) }
        }
    }

    /// Stops drawing anywhere, because the surface went to another row, until ``bind(to:)``. A load under way
    /// starts again when the placeholder is bound.
    func release() {
        state.withLock { state in
            state.drawing = .released
            state.generation += 1
            state.tick?.cancel()
            state.tick = nil
        }
    }

    /// The page a row's surface shows while the row has no block: no content, no script.
    private static let blankDocument = #"<!DOCTYPE html><html><head><meta charset="utf-8"></head><body></body></html>"#

    /// Shows an empty page on `surface` (on the callback queue), unless by then the placeholder has moved on
    /// from `generation`, draws elsewhere, or shows a block.
    private func blank(_ surface: any HTMLSurface, _ generation: Int) {
        engine.onCallbackQueue {
            let stillBlank = self.state.withLock { state in
                guard state.generation == generation, state.current == nil,
                    case .surface(let bound) = state.drawing, bound === surface
                else { return false }
                return true
            }
            guard stillBlank else { return }
            surface.load(
                html: Self.blankDocument,
                bridgeName: ContentBlockDocument.bridgeName,
                onMessage: { _ in },
                completion: { _ in }
            )
        }
    }

    /// Set by the manager for placeholders it prepared for table rows: called when the content or its size
    /// changes.
    var contentChanged: (@Sendable () -> Void)? {
        get { state.withLock { $0.contentChanged } }
        set { state.withLock { $0.contentChanged = newValue } }
    }

    // MARK: Loading

    private func restart(clearingClosed: Bool) -> Int {
        state.withLock { Self.restart(&$0, clearingClosed: clearingClosed) }
    }

    private static func restart(_ state: inout State, clearingClosed: Bool) -> Int {
        state.generation += 1
        state.tick?.cancel()
        state.tick = nil
        if clearingClosed { state.closed = [] }
        return state.generation
    }

    private func isCurrent(_ generation: Int) -> Bool {
        state.withLock { $0.generation == generation }
    }

    /// Picks the block to show on the work queue and loads it; `previous` is the block a carousel or a close
    /// moves on from.
    private func load(_ generation: Int, previous: ContentBlock?, rotating: Bool) {
        let closed = state.withLock { state in
            if state.generation == generation { state.loading = true }
            return state.closed
        }
        let engine = engine
        let placeholderID = placeholderID
        engine.onWorkQueue { [weak self] in
            guard let self else { return }
            engine.blocks(for: placeholderID) { result in
                guard self.isCurrent(generation) else { return }
                let blocks: [ContentBlock]
                switch result {
                case .failure(let error):
                    self.fail(generation, .error(nil, error.description))
                    return
                case .success(let loaded):
                    blocks = loaded
                }
                let eligible = engine.eligible(
                    blocks,
                    placeholderID: placeholderID,
                    excluding: closed,
                    maxCount: self.carousel?.maxCount
                )
                let chosen: ContentBlock?
                if let previous {
                    chosen = ContentBlockSelection.next(after: previous, in: eligible)
                    if chosen == nil, rotating, !closed.contains(previous.id),
                        blocks.contains(where: { $0.id == previous.id })
                    {
                        self.state.withLock { state in
                            if state.generation == generation { state.loading = false }
                        }
                        self.scheduleRotation(generation)
                        return
                    }
                } else {
                    chosen = eligible.first
                }
                guard let block = chosen else {
                    self.fail(generation, .noMessage)
                    return
                }
                self.loadAssets(of: block, generation)
            }
        }
    }

    /// Loads the block's assets (work queue), then shows its document, with a fresh token, on the callback queue.
    /// `redrawing` draws the shown block on a new surface.
    private func loadAssets(of block: ContentBlock, _ generation: Int, redrawing: Bool = false) {
        let engine = engine
        engine.work.begin()
        engine.assets.load(ContentBlockDocument.assetURLs(of: block), version: block.version) { [weak self] result in
            defer { engine.work.end() }
            guard let self, self.isCurrent(generation) else { return }
            switch result {
            case .failure(let error):
                self.fail(generation, .error(block, error.description))
            case .success(let assets):
                let token = BridgeToken.random()
                do throws(ContentBlockError) {
                    let html = try ContentBlockDocument.html(
                        for: block,
                        assets: assets,
                        token: token,
                        maxBytes: self.engine.configuration.maxDocumentBytes
                    )
                    self.engine.onCallbackQueue {
                        self.present(block, html: html, token: token, generation, redrawing: redrawing)
                    }
                } catch {
                    self.fail(generation, .error(block, error.description))
                }
            }
        }
    }

    /// Shows `html` on the surface; its messages are checked against `token`, the secret of this document.
    private func present(
        _ block: ContentBlock,
        html: String,
        token: BridgeToken,
        _ generation: Int,
        redrawing: Bool
    ) {
        let drawing = state.withLock { $0.generation == generation ? $0.drawing : nil }
        switch drawing {
        case nil, .released?:
            return
        case .byApp?:
            loaded(block, .loaded(size: nil), generation, redrawing: redrawing)
        case .surface(let surface)?:
            surface.load(
                html: html,
                bridgeName: ContentBlockDocument.bridgeName,
                onMessage: { [weak self] message in self?.received(message, token: token, generation) },
                completion: { [weak self] result in self?.loaded(block, result, generation, redrawing: redrawing) }
            )
        }
    }

    /// The surface finished loading the block's document. A first showing counts as shown: `show` is tracked and
    /// the history notes it. A redraw on a row's new surface only updates the size, and tells the row when it
    /// changed.
    private func loaded(
        _ block: ContentBlock,
        _ result: HTMLSurfaceLoadResult,
        _ generation: Int,
        redrawing: Bool
    ) {
        guard case .loaded(let size) = result else {
            if case .failed(let message) = result { fail(generation, .error(block, message)) }
            return
        }
        let notify = state.withLock { state -> [@Sendable () -> Void]? in
            guard state.generation == generation else { return nil }
            state.loading = false
            let changed = state.current?.id != block.id || state.size != size
            state.current = block
            state.size = size
            guard !redrawing else { return changed ? state.contentChanged.map { [$0] } ?? [] : [] }
            return Self.readyNotifications(state, true, changed: changed)
        }
        guard let notify else { return }
        guard !redrawing else {
            engine.onCallbackQueue {
                guard self.isCurrent(generation) else { return }
                for notification in notify { notification() }
            }
            if carousel != nil { scheduleRotation(generation) }
            return
        }
        engine.onWorkQueue { self.engine.recordShown(block) }
        engine.onCallbackQueue {
            guard self.isCurrent(generation) else { return }
            self.behaviourCallback.onMessageShown(placeholderID: self.placeholderID, contentBlock: block)
            for notification in notify { notification() }
        }
        if carousel != nil { scheduleRotation(generation) }
    }

    private func fail(_ generation: Int, _ failure: Failure) {
        engine.onCallbackQueue {
            let notify = self.state.withLock { state -> [@Sendable () -> Void]? in
                guard state.generation == generation else { return nil }
                state.loading = false
                let changed = state.current != nil
                state.current = nil
                state.size = nil
                return Self.readyNotifications(state, false, changed: changed)
            }
            guard let notify else { return }
            switch failure {
            case .noMessage:
                self.behaviourCallback.onNoMessageFound(placeholderID: self.placeholderID)
            case .error(let block, let message):
                self.behaviourCallback.onError(
                    placeholderID: self.placeholderID,
                    contentBlock: block,
                    errorMessage: message
                )
            }
            for notification in notify { notification() }
        }
    }

    private static func readyNotifications(
        _ state: State,
        _ ready: Bool,
        changed: Bool = true
    )
        -> [@Sendable () -> Void]
    {
        var notify: [@Sendable () -> Void] = []
        if let completion = state.readyCompletion { notify.append { completion(ready) } }
        if changed, let contentChanged = state.contentChanged { notify.append(contentChanged) }
        return notify
    }

    private func scheduleRotation(_ generation: Int) {
        guard let carousel else { return }
        let interval = carousel.interval ?? engine.configuration.carouselInterval
        let tick = engine.configuration.scheduler.schedule(after: interval) { [weak self] in
            guard let self, self.isCurrent(generation) else { return }
            self.load(generation, previous: self.contentBlock, rotating: true)
        }
        state.withLock { state in
            guard state.generation == generation else { return tick.cancel() }
            state.tick?.cancel()
            state.tick = tick
        }
    }

    // MARK: Interaction

    /// Acts on a message of the document shown for `generation`, whose token is `token`. Callback queue.
    private func received(_ message: String, token: BridgeToken, _ generation: Int) {
        engine.onCallbackQueue {
            let (block, callback) = self.state.withLock {
                ($0.generation == generation ? $0.current : nil, $0.callback)
            }
            guard let block else { return }
            do throws(ContentBlockError) {
                let allowed = self.engine.configuration.allowedLinkSchemes
                switch try ContentBlockBridgeMessage(parsing: message, allowedSchemes: allowed, token: token) {
                case .click(let action):
                    self.clicked(action, in: block, callback: callback)
                case .close:
                    self.closed(block, callback: callback)
                }
            } catch {
                guard self.state.withLock({ $0.errorLimit.admit(pageView: token.text) }) else { return }
                callback.onError(
                    placeholderID: self.placeholderID,
                    contentBlock: block,
                    errorMessage: error.description
                )
            }
        }
    }

    /// Notes the interaction and tells the callback. Callback queue.
    private func clicked(_ link: ContentBlockLink, in block: ContentBlock, callback: any ContentBlockCallback) {
        engine.onWorkQueue { self.engine.recordInteraction(block) }
        callback.onLinkClicked(placeholderID: placeholderID, contentBlock: block, link: link)
    }

    /// Notes the interaction, tells the callback, and moves on to the next eligible block. Callback queue.
    private func closed(_ block: ContentBlock, callback: any ContentBlockCallback) {
        engine.onWorkQueue { self.engine.recordInteraction(block) }
        callback.onCloseClicked(placeholderID: placeholderID, contentBlock: block)
        let generation = state.withLock { state in
            state.closed.insert(block.id)
            return state.generation
        }
        let next = restart(clearingClosed: false)
        guard next == generation + 1 else { return }
        load(next, previous: block, rotating: false)
    }
}
