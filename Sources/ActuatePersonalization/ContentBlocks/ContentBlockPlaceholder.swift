import Actuate
import Foundation
import Synchronization

/// A place in the app's UI where content blocks appear: it picks the block to show, loads its content and
/// assets off the main queue, shows it on an ``HTMLSurface`` and reports what happens through its
/// ``behaviourCallback``.
///
/// ```swift
/// let placeholder = ContentBlockPlaceholder(placeholderId: "home", deferredLoad: true, manager: manager,
///                                           surface: webView)
/// placeholder.contentReadyCompletion = { loaded in
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
    private struct State {
        var generation = 0
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
    public let placeholderId: String
    /// How the placeholder rotates, or nil for a placeholder that shows one block.
    public let carousel: ContentBlockCarousel?
    let engine: ContentBlockEngine
    private let surface: (any HTMLSurface)?
    private let state: Mutex<State>

    /// Creates a placeholder.
    /// - Parameters:
    ///   - placeholderId: The placeholder's id.
    ///   - deferredLoad: When true, nothing loads until ``reload()``; set the callbacks first. When false,
    ///     loading starts now.
    ///   - manager: The manager whose blocks, history and tracking the placeholder uses.
    ///   - surface: Where the block's HTML is shown; nil for a custom view that draws the block itself.
    ///   - carousel: How to rotate through the eligible blocks, or nil to show one.
    public init(
        placeholderId: String,
        deferredLoad: Bool = false,
        manager: ContentBlockManager,
        surface: (any HTMLSurface)? = nil,
        carousel: ContentBlockCarousel? = nil
    ) {
        self.placeholderId = placeholderId
        self.carousel = carousel
        self.engine = manager.engine
        self.surface = surface
        self.state = Mutex(State(callback: ContentBlockDefaultCallback(engine: manager.engine)))
        if !deferredLoad { reload() }
    }

    deinit {
        state.withLock { $0.tick }?.cancel()
    }

    /// What the placeholder tells the app; the default tracks events and opens links
    /// (``ContentBlockDefaultCallback``). Wrap the current value to add behaviour and keep the tracking.
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
    /// ``ContentBlockCallback/onError(placeholderId:contentBlock:errorMessage:)``, and so as an `error` event, once
    /// per block and page view (each document the placeholder shows); the others are only counted here, so a page
    /// that floods the bridge cannot flood the event store.
    public var droppedErrorCount: Int { state.withLock { $0.errorLimit.dropped } }

    /// Picks and shows a block again: the frequency rules are applied afresh and closed blocks may return.
    public func reload() {
        let generation = restart(clearingClosed: true)
        load(generation, previous: nil, rotating: false)
    }

    /// Reports a click on `actionUrl` in the shown block, for custom views that draw the block themselves:
    /// the behaviour callback's ``ContentBlockCallback/onActionClicked(placeholderId:contentBlock:action:)``
    /// runs as if the user had clicked the link in the block's page.
    /// - Parameters:
    ///   - actionUrl: The link clicked; its scheme must be allowed by the configuration.
    ///   - text: The clicked element's text; by default the text of the block's link to `actionUrl`.
    public func invokeActionClick(actionUrl: String, text: String? = nil) {
        engine.onCallbackQueue {
            let (block, callback) = self.state.withLock { ($0.current, $0.callback) }
            guard let block else {
                let message = "invokeActionClick(actionUrl:) was called while no content block is shown"
                callback.onError(placeholderId: self.placeholderId, contentBlock: nil, errorMessage: message)
                return
            }
            do throws(ContentBlockError) {
                let action = try ContentBlockAction(
                    checking: actionUrl,
                    text: text ?? ContentBlockDocument.linkText(for: actionUrl, in: block),
                    allowedSchemes: self.engine.configuration.allowedLinkSchemes
                )
                self.clicked(action, in: block, callback: callback)
            } catch {
                callback.onError(
                    placeholderId: self.placeholderId,
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
                state.tick?.cancel()
                guard let block = state.current else { return (nil, []) }
                state.current = nil
                state.size = nil
                return (block, Self.readyNotifications(state, false))
            }
            guard let block else { return }
            self.engine.track(
                ContentBlockEvent(kind: .close(userInteraction: false), placeholderId: self.placeholderId, block: block)
            )
            for notification in notify { notification() }
        }
    }

    /// Stops loading and rotating; the shown block stays as it is until ``reload()``.
    public func stop() {
        state.withLock { state in
            state.generation += 1
            state.tick?.cancel()
            state.tick = nil
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
        state.withLock { state in
            state.generation += 1
            state.tick?.cancel()
            state.tick = nil
            if clearingClosed { state.closed = [] }
            return state.generation
        }
    }

    private func isCurrent(_ generation: Int) -> Bool {
        state.withLock { $0.generation == generation }
    }

    /// Picks the block to show on the work queue and loads it; `previous` is the block a carousel or a close
    /// moves on from.
    private func load(_ generation: Int, previous: ContentBlock?, rotating: Bool) {
        let closed = state.withLock { $0.closed }
        let engine = engine
        let placeholderId = placeholderId
        engine.onWorkQueue { [weak self] in
            guard let self else { return }
            engine.blocks(for: placeholderId) { result in
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
                    placeholderId: placeholderId,
                    excluding: closed,
                    maxCount: self.carousel?.maxCount
                )
                let chosen: ContentBlock?
                if let previous {
                    chosen = ContentBlockSelection.next(after: previous, in: eligible)
                    if chosen == nil, rotating, !closed.contains(previous.id),
                        blocks.contains(where: { $0.id == previous.id })
                    {
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
    private func loadAssets(of block: ContentBlock, _ generation: Int) {
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
                    self.engine.onCallbackQueue { self.present(block, html: html, token: token, generation) }
                } catch {
                    self.fail(generation, .error(block, error.description))
                }
            }
        }
    }

    /// Shows `html` on the surface; its messages are checked against `token`, the secret of this document.
    private func present(_ block: ContentBlock, html: String, token: BridgeToken, _ generation: Int) {
        guard isCurrent(generation) else { return }
        guard let surface else {
            loaded(block, .loaded(size: nil), generation)
            return
        }
        surface.load(
            html: html,
            bridgeName: ContentBlockDocument.bridgeName,
            onMessage: { [weak self] message in self?.received(message, token: token, generation) },
            completion: { [weak self] result in self?.loaded(block, result, generation) }
        )
    }

    private func loaded(_ block: ContentBlock, _ result: HTMLSurfaceLoadResult, _ generation: Int) {
        guard case .loaded(let size) = result else {
            if case .failed(let message) = result { fail(generation, .error(block, message)) }
            return
        }
        let notify = state.withLock { state -> [@Sendable () -> Void]? in
            guard state.generation == generation else { return nil }
            let changed = state.current?.id != block.id || state.size != size
            state.current = block
            state.size = size
            return Self.readyNotifications(state, true, changed: changed)
        }
        guard let notify else { return }
        engine.onWorkQueue { self.engine.recordShown(block) }
        engine.onCallbackQueue {
            guard self.isCurrent(generation) else { return }
            self.behaviourCallback.onMessageShown(placeholderId: self.placeholderId, contentBlock: block)
            for notification in notify { notification() }
        }
        if carousel != nil { scheduleRotation(generation) }
    }

    private func fail(_ generation: Int, _ failure: Failure) {
        engine.onCallbackQueue {
            let notify = self.state.withLock { state -> [@Sendable () -> Void]? in
                guard state.generation == generation else { return nil }
                let changed = state.current != nil
                state.current = nil
                state.size = nil
                return Self.readyNotifications(state, false, changed: changed)
            }
            guard let notify else { return }
            switch failure {
            case .noMessage:
                self.behaviourCallback.onNoMessageFound(placeholderId: self.placeholderId)
            case .error(let block, let message):
                self.behaviourCallback.onError(
                    placeholderId: self.placeholderId,
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
                    placeholderId: self.placeholderId,
                    contentBlock: block,
                    errorMessage: error.description
                )
            }
        }
    }

    /// Notes the interaction and tells the callback. Callback queue.
    private func clicked(_ action: ContentBlockAction, in block: ContentBlock, callback: any ContentBlockCallback) {
        engine.onWorkQueue { self.engine.recordInteraction(block) }
        callback.onActionClicked(placeholderId: placeholderId, contentBlock: block, action: action)
    }

    /// Notes the interaction, tells the callback, and moves on to the next eligible block. Callback queue.
    private func closed(_ block: ContentBlock, callback: any ContentBlockCallback) {
        engine.onWorkQueue { self.engine.recordInteraction(block) }
        callback.onCloseClicked(placeholderId: placeholderId, contentBlock: block)
        let generation = state.withLock { state in
            state.closed.insert(block.id)
            return state.generation
        }
        let next = restart(clearingClosed: false)
        guard next == generation + 1 else { return }
        load(next, previous: block, rotating: false)
    }
}
