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
    private typealias State = ContentBlockPlaceholderState

    /// The placeholder's id, which blocks list in their `placeholders`.
    public let placeholderID: String
    /// How the placeholder rotates, or nil for a placeholder that shows one block.
    package let carousel: ContentBlockCarousel?
    let engine: ContentBlockEngine
    /// The rules and what they remember; the placeholder feeds them events under the lock and carries out the
    /// effects they return outside it.
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
                drawing: surface.map(State.Drawing.surface) ?? .byApp,
                callback: ContentBlockDefaultCallback(engine: manager.engine),
                rotates: carousel != nil
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
        send(.reload(blankingSurface: false))
    }

    /// Like ``reload()``; with `blankingSurface`, first blanks the surface, which shows another row's block.
    func reload(blankingSurface: Bool) {
        send(.reload(blankingSurface: blankingSurface))
    }

    /// Reports a click on `linkURL` in the shown block, for custom views that draw the block themselves:
    /// the behaviour callback's ``ContentBlockCallback/onLinkClicked(placeholderID:contentBlock:link:)``
    /// runs as if the user had clicked the link in the block's page.
    /// - Parameters:
    ///   - linkURL: The link clicked; its scheme must be allowed by the configuration.
    ///   - text: The clicked element's text; by default the text of the block's link to `linkURL`.
    public func invokeLinkClick(linkURL: String, text: String? = nil) {
        engine.onCallbackQueue {
            let allowed = self.engine.configuration.allowedLinkSchemes
            self.send(.linkInvoked(url: linkURL, text: text, allowedSchemes: allowed))
        }
    }

    /// Hides the shown block without the user asking (a timeout, or the app's own choice): tracks `close` with
    /// `interaction` false and reports not ready. The history does not count it as an interaction.
    public func dismiss() {
        engine.onCallbackQueue { self.send(.dismiss) }
    }

    /// Stops loading and rotating; the shown block stays as it is until ``reload()``.
    public func stop() {
        send(.stop)
    }

    // MARK: Rows of tables and lists

    /// Moves the placeholder to `surface` (nil: the app draws the block), as a table row moves to the cell it is
    /// given now. Nothing is drawn into the previous surface any more, and its page's messages are ignored. The
    /// block shown now is drawn again on `surface`, without a new `show` or history entry (the row shows the block
    /// it already showed); a load under way starts again for `surface`; with no block, `surface` is blanked, so it
    /// does not keep showing another row's block. Binding to the surface it has does nothing.
    func bind(to surface: (any HTMLSurface)?) {
        send(.bind(surface))
    }

    /// Stops drawing anywhere, because the surface went to another row, until ``bind(to:)``. A load under way
    /// starts again when the placeholder is bound.
    func release() {
        send(.release)
    }

    /// Set by the manager for placeholders it prepared for table rows: called when the content or its size
    /// changes.
    var contentChanged: (@Sendable () -> Void)? {
        get { state.withLock { $0.contentChanged } }
        set { state.withLock { $0.contentChanged = newValue } }
    }

    // MARK: Driving the state machine

    /// Feeds `event` to the state under the lock, then carries out the effects it returns, in order, outside it.
    private func send(_ event: State.Event) {
        let effects = state.withLock { $0.handle(event) }
        for effect in effects { perform(effect) }
    }

    private func isCurrent(_ generation: Int) -> Bool {
        state.withLock { $0.isCurrent(generation) }
    }

    /// The page a row's surface shows while the row has no block: no content, no script.
    private static let blankDocument = #"<!DOCTYPE html><html><head><meta charset="utf-8"></head><body></body></html>"#

    private func perform(_ effect: State.Effect) {
        switch effect {
        case .cancel(let work):
            work.cancel()
        case .onCallbackQueue(let event):
            engine.onCallbackQueue { self.send(event) }
        case .showBlank(let surface):
            surface.load(
                html: Self.blankDocument,
                bridgeName: ContentBlockDocument.bridgeName,
                onMessage: { _ in },
                completion: { _ in }
            )
        case .pick(let previous, let rotating, let excluding, let generation):
            pick(after: previous, rotating: rotating, excluding: excluding, generation)
        case .loadAssets(let block, let generation, let redrawing):
            loadAssets(of: block, generation, redrawing: redrawing)
        case .show(let block, let html, let token, let surface, let generation, let redrawing):
            surface.load(
                html: html,
                bridgeName: ContentBlockDocument.bridgeName,
                onMessage: { [weak self] message in self?.received(message, token: token, generation) },
                completion: { [weak self] result in
                    self?.send(.documentLoaded(block, result, generation: generation, redrawing: redrawing))
                }
            )
        case .scheduleRotation(let generation):
            scheduleRotation(generation)
        case .recordShown(let block):
            let engine = engine
            engine.onWorkQueue { engine.recordShown(block) }
        case .recordInteraction(let block):
            let engine = engine
            engine.onWorkQueue { engine.recordInteraction(block) }
        case .trackDismissal(let block):
            engine.track(
                ContentBlockEvent(kind: .close(userInteraction: false), placeholderID: placeholderID, block: block)
            )
        case .tell(let callback, let notice):
            tell(callback, notice)
        case .notify(let notifications):
            for notification in notifications { notification() }
        }
    }

    private func tell(_ callback: any ContentBlockCallback, _ notice: State.Notice) {
        switch notice {
        case .messageShown(let block):
            callback.onMessageShown(placeholderID: placeholderID, contentBlock: block)
        case .noMessageFound:
            callback.onNoMessageFound(placeholderID: placeholderID)
        case .error(let block, let message):
            callback.onError(placeholderID: placeholderID, contentBlock: block, errorMessage: message)
        case .linkClicked(let block, let link):
            callback.onLinkClicked(placeholderID: placeholderID, contentBlock: block, link: link)
        case .closeClicked(let block):
            callback.onCloseClicked(placeholderID: placeholderID, contentBlock: block)
        }
    }

    // MARK: Loading

    /// Loads the placeholder's blocks on the work queue and hands them, with those eligible now, to the state.
    private func pick(after previous: ContentBlock?, rotating: Bool, excluding closed: Set<String>, _ generation: Int) {
        let engine = engine
        let placeholderID = placeholderID
        engine.onWorkQueue { [weak self] in
            guard let self else { return }
            engine.blocks(for: placeholderID) { result in
                guard self.isCurrent(generation) else { return }
                switch result {
                case .failure(let error):
                    self.send(.loadFailed(.error(nil, error.description), generation: generation))
                case .success(let blocks):
                    let eligible = engine.eligible(
                        blocks,
                        placeholderID: placeholderID,
                        excluding: closed,
                        maxCount: self.carousel?.maxCount
                    )
                    self.send(
                        .blocksLoaded(
                            all: blocks,
                            eligible: eligible,
                            previous: previous,
                            rotating: rotating,
                            generation: generation
                        )
                    )
                }
            }
        }
    }

    /// Loads the block's assets (work queue), then hands its document, with a fresh token, to the state on the
    /// callback queue. `redrawing` draws the shown block on a new surface.
    private func loadAssets(of block: ContentBlock, _ generation: Int, redrawing: Bool) {
        let engine = engine
        engine.work.begin()
        engine.assets.load(ContentBlockDocument.assetURLs(of: block), version: block.version) { [weak self] result in
            defer { engine.work.end() }
            guard let self, self.isCurrent(generation) else { return }
            switch result {
            case .failure(let error):
                self.send(.loadFailed(.error(block, error.description), generation: generation))
            case .success(let assets):
                let token = BridgeToken.random()
                do throws(ContentBlockError) {
                    let html = try ContentBlockDocument.html(
                        for: block,
                        assets: assets,
                        token: token,
                        maxBytes: engine.configuration.maxDocumentBytes
                    )
                    engine.onCallbackQueue {
                        self.send(
                            .documentReady(
                                block,
                                html: html,
                                token: token,
                                generation: generation,
                                redrawing: redrawing
                            )
                        )
                    }
                } catch {
                    self.send(.loadFailed(.error(block, error.description), generation: generation))
                }
            }
        }
    }

    private func scheduleRotation(_ generation: Int) {
        guard let carousel else { return }
        let interval = carousel.interval ?? engine.configuration.carouselInterval
        let tick = engine.configuration.scheduler.schedule(after: interval) { [weak self] in
            self?.send(.rotationDue(generation: generation))
        }
        send(.rotationScheduled(tick, generation: generation))
    }

    // MARK: Interaction

    /// Checks a message of the document shown for `generation`, whose token is `token`, and hands it to the state
    /// on the callback queue.
    private func received(_ message: String, token: BridgeToken, _ generation: Int) {
        engine.onCallbackQueue {
            let bridge = ContentBlockDocument.bridge(allowing: self.engine.configuration.allowedLinkSchemes)
            let checked = BridgeMessage.parseBlockMessage(message, bridge: bridge, token: token)
            self.send(.message(checked, pageView: token.text, generation: generation))
        }
    }
}
