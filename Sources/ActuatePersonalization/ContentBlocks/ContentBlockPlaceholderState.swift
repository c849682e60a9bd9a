import Actuate
import Foundation

/// The rules of one ``ContentBlockPlaceholder``, as a state machine with no I/O: it takes an ``Event`` and returns
/// the ``Effect``s its driver, the placeholder, carries out outside its lock.
///
/// The rules:
/// - Every change of course (a reload, a close, a dismissal, a stop, a move to another surface or away from one)
///   starts a new *generation*. Work of an older generation (a pick, a load, a rotation tick, a surface's answer or
///   message) finds it outdated and does nothing.
/// - A reload forgets the closed blocks and picks a block again; a close hides the closed block until the next
///   reload and picks the next eligible block after it.
/// - A block counts as shown once its document has loaded (at once when the app draws it): `show` is recorded and
///   the callback hears of it. A redraw on a row's new surface only updates the size.
/// - With a carousel, each shown block schedules the next rotation; a rotation that finds no other block keeps
///   the one it shows and tries again later.
/// - Of a page view's refused bridge messages, only the first reaches the callback (``BridgeErrorLimit``).
struct ContentBlockPlaceholderState: Sendable {
    /// Where the placeholder draws its block.
    enum Drawing: Sendable {
        /// Into this surface.
        case surface(any HTMLSurface)
        /// Nowhere: the app draws the block itself, and it counts as shown once loaded.
        case byApp
        /// Nowhere until the manager binds it again: its table row's surface was given to another row.
        case released
    }

    /// Why a load ended without a block.
    enum Failure: Sendable, Hashable {
        /// No block applies.
        case noMessage
        /// Loading failed; the block, when one had been picked, and what went wrong.
        case error(ContentBlock?, String)
    }

    /// What the placeholder tells its ``ContentBlockCallback``.
    enum Notice: Sendable {
        case messageShown(ContentBlock)
        case noMessageFound
        case error(ContentBlock?, String)
        case linkClicked(ContentBlock, ContentBlockLink)
        case closeClicked(ContentBlock)
    }

    /// Something that happened to the placeholder. The comment says on which queue it is fed, where that matters.
    enum Event: Sendable {
        /// The app asked for a block again; `blankingSurface` first blanks the surface, which shows another row's.
        case reload(blankingSurface: Bool)
        /// The app hid the shown block without the user asking. Callback queue.
        case dismiss
        /// The app stopped loading and rotating.
        case stop
        /// The manager moved the placeholder to another surface (nil: the app draws).
        case bind((any HTMLSurface)?)
        /// The manager gave the placeholder's surface to another row.
        case release
        /// The time to blank `surface` has come. Callback queue.
        case blankDue(any HTMLSurface, generation: Int)
        /// The carousel's interval has passed.
        case rotationDue(generation: Int)
        /// The next rotation was scheduled as `work`.
        case rotationScheduled(ScheduledWork, generation: Int)
        /// The placeholder's blocks arrived: `all` of them, and those `eligible` now in display order.
        case blocksLoaded(
            all: [ContentBlock],
            eligible: [ContentBlock],
            previous: ContentBlock?,
            rotating: Bool,
            generation: Int
        )
        /// Loading the blocks, an asset or the document failed.
        case loadFailed(Failure, generation: Int)
        /// A failure is to be reported. Callback queue.
        case failed(Failure, generation: Int)
        /// The block's document is built; its messages must carry `token`. Callback queue.
        case documentReady(ContentBlock, html: String, token: BridgeToken, generation: Int, redrawing: Bool)
        /// The surface finished loading the block's document.
        case documentLoaded(ContentBlock, HTMLSurfaceLoadResult, generation: Int, redrawing: Bool)
        /// A first showing is to be announced. Callback queue.
        case shownDue(ContentBlock, notify: [@Sendable () -> Void], generation: Int)
        /// A redraw's size change is to be announced. Callback queue.
        case redrawnDue(notify: [@Sendable () -> Void], generation: Int)
        /// The document of page view `pageView` posted a message, checked by the bridge. Callback queue.
        case message(Result<ContentBlockBridgeMessage, BridgeMessageError>, pageView: String, generation: Int)
        /// The app reported a click on `url` in the shown block (a custom view). Callback queue.
        case linkInvoked(url: String, text: String?, allowedSchemes: Set<String>)
    }

    /// What the driver does, in the order given.
    enum Effect: Sendable {
        /// Cancel scheduled work.
        case cancel(ScheduledWork)
        /// Feed `event` later, on the callback queue.
        case onCallbackQueue(Event)
        /// Load the blank page into `surface`: no content, no script.
        case showBlank(any HTMLSurface)
        /// Load the placeholder's blocks on the work queue and feed ``Event/blocksLoaded(all:eligible:previous:rotating:generation:)``,
        /// with the blocks in `excluding` left out of the eligible ones.
        case pick(previous: ContentBlock?, rotating: Bool, excluding: Set<String>, generation: Int)
        /// Load the block's assets, build its document and feed ``Event/documentReady(_:html:token:generation:redrawing:)``.
        case loadAssets(ContentBlock, generation: Int, redrawing: Bool)
        /// Load the block's document into `surface`, feeding its messages and its end back.
        case show(
            ContentBlock,
            html: String,
            token: BridgeToken,
            surface: any HTMLSurface,
            generation: Int,
            redrawing: Bool
        )
        /// Schedule the carousel's next rotation and feed ``Event/rotationScheduled(_:generation:)``.
        case scheduleRotation(generation: Int)
        /// Note in the history, on the work queue, that the block was shown.
        case recordShown(ContentBlock)
        /// Note in the history, on the work queue, that the user clicked or closed the block.
        case recordInteraction(ContentBlock)
        /// Track a `close` the user did not make.
        case trackDismissal(ContentBlock)
        /// Tell the callback.
        case tell(any ContentBlockCallback, Notice)
        /// Call these: the ready completion and the row's content-changed handler.
        case notify([@Sendable () -> Void])
    }

    private(set) var drawing: Drawing
    /// Counts changes of course; work carries the generation it was started for.
    private(set) var generation = 0
    /// Whether a block is being picked or loaded for `generation`, not yet shown or failed.
    private(set) var loading = false
    /// The block shown now.
    private(set) var current: ContentBlock?
    /// The shown block's measured size.
    private(set) var size: HTMLContentSize?
    /// The blocks closed since the last reload.
    private(set) var closed: Set<String> = []
    /// The carousel's next rotation.
    private(set) var tick: ScheduledWork?
    var callback: any ContentBlockCallback
    var readyCompletion: (@Sendable (Bool) -> Void)?
    var contentChanged: (@Sendable () -> Void)?
    private(set) var errorLimit = BridgeErrorLimit()
    /// Whether the placeholder has a carousel.
    let rotates: Bool

    /// Creates the state of a placeholder that has not loaded anything yet.
    init(drawing: Drawing, callback: any ContentBlockCallback, rotates: Bool) {
        self.drawing = drawing
        self.callback = callback
        self.rotates = rotates
    }

    /// Whether work started for `generation` is still wanted.
    func isCurrent(_ generation: Int) -> Bool {
        self.generation == generation
    }

    /// Takes one event and returns what to do.
    mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .reload(let blankingSurface):
            var effects = restart(clearingClosed: true)
            if blankingSurface, case .surface(let surface) = drawing {
                effects.append(.onCallbackQueue(.blankDue(surface, generation: generation)))
            }
            return effects + startPicking(previous: nil, rotating: false)
        case .dismiss:
            var effects = restart(clearingClosed: false)
            loading = false
            guard let block = current else { return effects }
            current = nil
            size = nil
            effects.append(.trackDismissal(block))
            effects.append(.notify(readyNotifications(false, changed: true)))
            return effects
        case .stop:
            loading = false
            return restart(clearingClosed: false)
        case .bind(let surface):
            return bind(to: surface)
        case .release:
            drawing = .released
            return restart(clearingClosed: false)
        case .blankDue(let surface, let generation):
            guard isCurrent(generation), current == nil, case .surface(let bound) = drawing, bound === surface else {
                return []
            }
            return [.showBlank(surface)]
        case .rotationDue(let generation):
            guard isCurrent(generation) else { return [] }
            return startPicking(previous: current, rotating: true)
        case .rotationScheduled(let work, let generation):
            guard isCurrent(generation) else { return [.cancel(work)] }
            let previous = tick
            tick = work
            return previous.map { [.cancel($0)] } ?? []
        case .blocksLoaded(let all, let eligible, let previous, let rotating, let generation):
            guard isCurrent(generation) else { return [] }
            return choose(all: all, eligible: eligible, previous: previous, rotating: rotating)
        case .loadFailed(let failure, let generation):
            guard isCurrent(generation) else { return [] }
            return [.onCallbackQueue(.failed(failure, generation: generation))]
        case .failed(let failure, let generation):
            guard isCurrent(generation) else { return [] }
            return fail(failure)
        case .documentReady(let block, let html, let token, let generation, let redrawing):
            guard isCurrent(generation) else { return [] }
            switch drawing {
            case .released:
                return []
            case .byApp:
                return handle(.documentLoaded(block, .loaded(size: nil), generation: generation, redrawing: redrawing))
            case .surface(let surface):
                return [
                    .show(
                        block,
                        html: html,
                        token: token,
                        surface: surface,
                        generation: generation,
                        redrawing: redrawing
                    )
                ]
            }
        case .documentLoaded(let block, let result, let generation, let redrawing):
            switch result {
            case .failed(let message):
                return handle(.loadFailed(.error(block, message), generation: generation))
            case .loaded(let size):
                guard isCurrent(generation) else { return [] }
                return shown(block, size: size, redrawing: redrawing)
            }
        case .shownDue(let block, let notify, let generation):
            guard isCurrent(generation) else { return [] }
            return [.tell(callback, .messageShown(block)), .notify(notify)]
        case .redrawnDue(let notify, let generation):
            guard isCurrent(generation) else { return [] }
            return [.notify(notify)]
        case .message(let message, let pageView, let generation):
            guard isCurrent(generation), let block = current else { return [] }
            return received(message, pageView: pageView, in: block)
        case .linkInvoked(let url, let text, let allowedSchemes):
            guard let block = current else {
                let message = "invokeLinkClick(linkURL:text:) was called while no content block is shown"
                return [.tell(callback, .error(nil, message))]
            }
            do throws(ContentBlockError) {
                let link = try ContentBlockLink(
                    checking: url,
                    text: text ?? ContentBlockDocument.linkText(for: url, in: block),
                    allowedSchemes: allowedSchemes
                )
                return [.recordInteraction(block), .tell(callback, .linkClicked(block, link))]
            } catch {
                return [.tell(callback, .error(block, error.description))]
            }
        }
    }

    // MARK: Steps

    /// Starts a new generation, cancelling the rotation; `clearingClosed` forgets the closed blocks.
    private mutating func restart(clearingClosed: Bool) -> [Effect] {
        generation += 1
        if clearingClosed { closed = [] }
        defer { tick = nil }
        return tick.map { [.cancel($0)] } ?? []
    }

    /// Marks the generation as loading and picks a block for it.
    private mutating func startPicking(previous: ContentBlock?, rotating: Bool) -> [Effect] {
        loading = true
        return [.pick(previous: previous, rotating: rotating, excluding: closed, generation: generation)]
    }

    private mutating func bind(to surface: (any HTMLSurface)?) -> [Effect] {
        switch (drawing, surface) {
        case (.surface(let bound), let surface?) where bound === surface: return []
        case (.byApp, nil): return []
        default: break
        }
        drawing = surface.map(Drawing.surface) ?? .byApp
        var effects = restart(clearingClosed: false)
        if let block = current, !closed.contains(block.id) {
            // The row shows the block it already showed: draw it again, without a new `show`.
            return effects + [.loadAssets(block, generation: generation, redrawing: true)]
        }
        // No block: the new surface must not keep showing another row's block; a load under way starts again.
        if let surface { effects.append(.onCallbackQueue(.blankDue(surface, generation: generation))) }
        if loading { effects += startPicking(previous: nil, rotating: false) }
        return effects
    }

    /// Picks the block to load from the placeholder's blocks: the next after `previous`, or the first.
    private mutating func choose(
        all: [ContentBlock],
        eligible: [ContentBlock],
        previous: ContentBlock?,
        rotating: Bool
    ) -> [Effect] {
        let chosen: ContentBlock?
        if let previous {
            chosen = ContentBlockSelection.next(after: previous, in: eligible)
            if chosen == nil, rotating, !closed.contains(previous.id), all.contains(where: { $0.id == previous.id }) {
                // Nothing else to rotate to: keep showing `previous` and try again after the interval.
                loading = false
                return rotates ? [.scheduleRotation(generation: generation)] : []
            }
        } else {
            chosen = eligible.first
        }
        guard let block = chosen else { return [.onCallbackQueue(.failed(.noMessage, generation: generation))] }
        return [.loadAssets(block, generation: generation, redrawing: false)]
    }

    private mutating func fail(_ failure: Failure) -> [Effect] {
        loading = false
        let changed = current != nil
        current = nil
        size = nil
        let notice: Notice
        switch failure {
        case .noMessage: notice = .noMessageFound
        case .error(let block, let message): notice = .error(block, message)
        }
        return [.tell(callback, notice), .notify(readyNotifications(false, changed: changed))]
    }

    /// The block's document loaded. A first showing counts as shown; a redraw only updates the size, and tells
    /// the row when it changed.
    private mutating func shown(_ block: ContentBlock, size: HTMLContentSize?, redrawing: Bool) -> [Effect] {
        loading = false
        let changed = current?.id != block.id || self.size != size
        current = block
        self.size = size
        var effects: [Effect]
        if redrawing {
            let notify = changed ? contentChanged.map { [$0] } ?? [] : []
            effects = [.onCallbackQueue(.redrawnDue(notify: notify, generation: generation))]
        } else {
            let notify = readyNotifications(true, changed: changed)
            effects = [.recordShown(block), .onCallbackQueue(.shownDue(block, notify: notify, generation: generation))]
        }
        if rotates { effects.append(.scheduleRotation(generation: generation)) }
        return effects
    }

    private mutating func received(
        _ message: Result<ContentBlockBridgeMessage, BridgeMessageError>,
        pageView: String,
        in block: ContentBlock
    ) -> [Effect] {
        switch message {
        case .success(.click(let link)):
            return [.recordInteraction(block), .tell(callback, .linkClicked(block, link))]
        case .success(.close):
            // Told first, then hidden until the next reload, and the next eligible block picked.
            var effects: [Effect] = [.recordInteraction(block), .tell(callback, .closeClicked(block))]
            closed.insert(block.id)
            effects += restart(clearingClosed: false)
            return effects + startPicking(previous: block, rotating: false)
        case .failure(let error):
            guard errorLimit.admit(pageView: pageView) else { return [] }
            let message = ContentBlockError.invalidMessage(reason: error.reason).description
            return [.tell(callback, .error(block, message))]
        }
    }

    /// The ready completion with `ready`, and, when the content `changed`, the row's content-changed handler.
    private func readyNotifications(_ ready: Bool, changed: Bool) -> [@Sendable () -> Void] {
        var notify: [@Sendable () -> Void] = []
        if let completion = readyCompletion { notify.append { completion(ready) } }
        if changed, let contentChanged { notify.append(contentChanged) }
        return notify
    }
}
