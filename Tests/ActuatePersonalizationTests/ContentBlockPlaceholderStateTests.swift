import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization

@Suite("ContentBlockPlaceholderState")
struct ContentBlockPlaceholderStateTests {
    /// A callback that does nothing: the state only hands it back in its effects.
    private struct SilentCallback: ContentBlockCallback {
        func onMessageShown(placeholderID: String, contentBlock: ContentBlock) {}
        func onNoMessageFound(placeholderID: String) {}
        func onError(placeholderID: String, contentBlock: ContentBlock?, errorMessage: String) {}
        func onCloseClicked(placeholderID: String, contentBlock: ContentBlock) {}
        func onLinkClicked(placeholderID: String, contentBlock: ContentBlock, link: ContentBlockLink) {}
    }

    /// A surface the state compares by identity; nothing is ever loaded into it here.
    private final class InertSurface: HTMLSurface {
        func load(
            html: String,
            bridgeName: String,
            onMessage: @escaping @Sendable (String) -> Void,
            completion: @escaping @Sendable (HTMLSurfaceLoadResult) -> Void
        ) {}
    }

    private static let hero = ContentBlock.test("hero")
    private static let sale = ContentBlock.test("sale")
    private static let size = HTMLContentSize(width: 320, height: 120)

    private static func makeState(
        drawing: ContentBlockPlaceholderState.Drawing = .byApp,
        rotates: Bool = false
    ) -> ContentBlockPlaceholderState {
        ContentBlockPlaceholderState(drawing: drawing, callback: SilentCallback(), rotates: rotates)
    }

    /// Each effect as a short line, so a test compares what the state asked for in order.
    private static func summary(_ effects: [ContentBlockPlaceholderState.Effect]) -> [String] {
        effects.map { effect in
            switch effect {
            case .cancel: return "cancel"
            case .onCallbackQueue(let event): return "later \(summary(event))"
            case .showBlank: return "showBlank"
            case .pick(let previous, let rotating, let excluding, let generation):
                return "pick(\(generation), after: \(previous?.id ?? "-"), rotating: \(rotating), "
                    + "excluding: \(excluding.sorted()))"
            case .loadAssets(let block, let generation, let redrawing):
                return "loadAssets(\(block.id), \(generation), redrawing: \(redrawing))"
            case .show(let block, _, let token, _, let generation, _):
                return "show(\(block.id), \(generation), token: \(token.text))"
            case .scheduleRotation(let generation): return "scheduleRotation(\(generation))"
            case .recordShown(let block): return "recordShown(\(block.id))"
            case .recordInteraction(let block): return "recordInteraction(\(block.id))"
            case .trackDismissal(let block): return "trackDismissal(\(block.id))"
            case .tell(_, let notice):
                switch notice {
                case .messageShown(let block): return "tell shown(\(block.id))"
                case .noMessageFound: return "tell noMessage"
                case .error(let block, let message): return "tell error(\(block?.id ?? "-"), \(message))"
                case .linkClicked(let block, let link): return "tell link(\(block.id), \(link.url))"
                case .closeClicked(let block): return "tell close(\(block.id))"
                }
            case .notify(let notifications): return "notify(\(notifications.count))"
            }
        }
    }

    private static func summary(_ event: ContentBlockPlaceholderState.Event) -> String {
        switch event {
        case .blankDue(_, let generation): return "blankDue(\(generation))"
        case .failed(let failure, let generation): return "failed(\(failure), \(generation))"
        case .shownDue(let block, let notify, let generation):
            return "shownDue(\(block.id), notify: \(notify.count), \(generation))"
        case .redrawnDue(let notify, let generation): return "redrawnDue(notify: \(notify.count), \(generation))"
        default: return "\(event)"
        }
    }

    /// Reload, blocks loaded and the document built: the state of a placeholder that shows `block` for the app.
    private static func showing(
        _ block: ContentBlock,
        in state: inout ContentBlockPlaceholderState
    ) -> [ContentBlockPlaceholderState.Effect] {
        _ = state.handle(.reload(blankingSurface: false))
        let generation = state.generation
        _ = state.handle(
            .blocksLoaded(all: [block], eligible: [block], previous: nil, rotating: false, generation: generation)
        )
        return state.handle(
            .documentReady(block, html: "<p/>", token: BridgeToken("t1"), generation: generation, redrawing: false)
        )
    }

    @Test("A reload starts a new generation, marks it loading and picks without the closed blocks")
    func reloadPicks() {
        var state = Self.makeState()
        let effects = state.handle(.reload(blankingSurface: false))
        #expect(state.generation == 1)
        #expect(state.loading)
        #expect(Self.summary(effects) == ["pick(1, after: -, rotating: false, excluding: [])"])
    }

    @Test("Loaded blocks lead to the first eligible one's assets; none eligible reports no message")
    func blocksLoaded() {
        var state = Self.makeState()
        _ = state.handle(.reload(blankingSurface: false))
        let chosen = state.handle(
            .blocksLoaded(
                all: [Self.hero, Self.sale],
                eligible: [Self.sale],
                previous: nil,
                rotating: false,
                generation: 1
            )
        )
        #expect(Self.summary(chosen) == ["loadAssets(sale, 1, redrawing: false)"])
        let none = state.handle(
            .blocksLoaded(all: [Self.hero], eligible: [], previous: nil, rotating: false, generation: 1)
        )
        #expect(Self.summary(none) == ["later failed(noMessage, 1)"])
    }

    @Test("Work of an older generation does nothing")
    func staleWork() {
        var state = Self.makeState()
        _ = state.handle(.reload(blankingSurface: false))
        _ = state.handle(.reload(blankingSurface: false))
        let stale = state.handle(
            .blocksLoaded(all: [Self.hero], eligible: [Self.hero], previous: nil, rotating: false, generation: 1)
        )
        #expect(stale.isEmpty)
        #expect(state.handle(.loadFailed(.noMessage, generation: 1)).isEmpty)
        #expect(state.handle(.documentLoaded(Self.hero, .loaded(size: nil), generation: 1, redrawing: false)).isEmpty)
        #expect(state.current == nil)
    }

    @Test("A document the app draws counts as shown at once: recorded, then announced on the callback queue")
    func shownByApp() {
        var state = Self.makeState()
        state.readyCompletion = { _ in }
        let effects = Self.showing(Self.hero, in: &state)
        #expect(Self.summary(effects) == ["recordShown(hero)", "later shownDue(hero, notify: 1, 1)"])
        #expect(state.current?.id == "hero")
        #expect(!state.loading)
        #expect(
            Self.summary(state.handle(.shownDue(Self.hero, notify: [], generation: 1))) == [
                "tell shown(hero)", "notify(0)",
            ]
        )
    }

    @Test("A document for a surface is shown on it, and counts once the surface loaded it")
    func shownOnSurface() {
        var state = Self.makeState(drawing: .surface(InertSurface()))
        let effects = Self.showing(Self.hero, in: &state)
        #expect(Self.summary(effects) == ["show(hero, 1, token: t1)"])
        #expect(state.current == nil)
        let loaded = state.handle(.documentLoaded(Self.hero, .loaded(size: Self.size), generation: 1, redrawing: false))
        #expect(Self.summary(loaded) == ["recordShown(hero)", "later shownDue(hero, notify: 0, 1)"])
        #expect(state.size == Self.size)
        let failed = state.handle(.documentLoaded(Self.hero, .failed(message: "gone"), generation: 1, redrawing: false))
        #expect(Self.summary(failed).first?.hasPrefix("later failed(error(") == true)
    }

    @Test("A released placeholder draws nothing")
    func released() {
        var state = Self.makeState(drawing: .surface(InertSurface()))
        _ = state.handle(.reload(blankingSurface: false))
        _ = state.handle(.release)
        #expect(state.generation == 2)
        let ready = state.handle(
            .documentReady(Self.hero, html: "", token: BridgeToken("t"), generation: 2, redrawing: false)
        )
        #expect(ready.isEmpty)
    }

    @Test("A failure clears the block, tells the callback, then reports not ready")
    func failure() {
        var state = Self.makeState()
        state.readyCompletion = { _ in }
        state.contentChanged = {}
        _ = Self.showing(Self.hero, in: &state)
        let effects = state.handle(.failed(.error(nil, "offline"), generation: 1))
        #expect(Self.summary(effects) == ["tell error(-, offline)", "notify(2)"])
        #expect(state.current == nil)
        #expect(!state.loading)
    }

    @Test("A close is told, hides the block until the next reload, and picks the next one after it")
    func close() {
        var state = Self.makeState()
        _ = Self.showing(Self.hero, in: &state)
        let effects = state.handle(.message(.success(.close), pageView: "t1", generation: 1))
        #expect(
            Self.summary(effects) == [
                "recordInteraction(hero)", "tell close(hero)",
                "pick(2, after: hero, rotating: false, excluding: [\"hero\"])",
            ]
        )
        #expect(state.closed == ["hero"])
        _ = state.handle(.reload(blankingSurface: false))
        #expect(state.closed.isEmpty)
    }

    @Test("A click is recorded and told; a message for another generation is ignored")
    func click() {
        var state = Self.makeState()
        _ = Self.showing(Self.hero, in: &state)
        let link = ContentBlockLink(url: "https://shop.example.com/hero")
        let effects = state.handle(.message(.success(.click(link)), pageView: "t1", generation: 1))
        #expect(Self.summary(effects) == ["recordInteraction(hero)", "tell link(hero, https://shop.example.com/hero)"])
        #expect(state.handle(.message(.success(.close), pageView: "t0", generation: 0)).isEmpty)
    }

    @Test("Only the first refused message of a page view is told; the others are counted")
    func refusedMessages() {
        var state = Self.makeState()
        _ = Self.showing(Self.hero, in: &state)
        let refused = Result<ContentBlockBridgeMessage, BridgeMessageError>.failure(.notAnObject)
        let first = state.handle(.message(refused, pageView: "t1", generation: 1))
        let second = state.handle(.message(refused, pageView: "t1", generation: 1))
        #expect(Self.summary(first).count == 1)
        #expect(Self.summary(first).first?.hasPrefix("tell error(hero, ") == true)
        #expect(second.isEmpty)
        #expect(state.errorLimit.dropped == 1)
    }

    @Test("A dismissal cancels the rotation, tracks a close the user did not make and reports not ready")
    func dismissal() {
        var state = Self.makeState(rotates: true)
        state.readyCompletion = { _ in }
        #expect(Self.summary(Self.showing(Self.hero, in: &state)).last == "scheduleRotation(1)")
        #expect(state.handle(.rotationScheduled(ScheduledWork(cancel: {}), generation: 1)).isEmpty)
        let effects = state.handle(.dismiss)
        #expect(Self.summary(effects) == ["cancel", "trackDismissal(hero)", "notify(1)"])
        #expect(state.current == nil)
        #expect(state.tick == nil)
        #expect(Self.summary(state.handle(.dismiss)) == [])
    }

    @Test("A rotation scheduled for an older generation is cancelled at once; a newer one replaces the last")
    func rotationScheduling() {
        var state = Self.makeState(rotates: true)
        _ = Self.showing(Self.hero, in: &state)
        #expect(Self.summary(state.handle(.rotationScheduled(ScheduledWork(cancel: {}), generation: 0))) == ["cancel"])
        #expect(state.handle(.rotationScheduled(ScheduledWork(cancel: {}), generation: 1)).isEmpty)
        #expect(Self.summary(state.handle(.rotationScheduled(ScheduledWork(cancel: {}), generation: 1))) == ["cancel"])
    }

    @Test("A rotation picks after the shown block; with nothing else it keeps the block and tries again later")
    func rotation() {
        var state = Self.makeState(rotates: true)
        _ = Self.showing(Self.hero, in: &state)
        let due = state.handle(.rotationDue(generation: 1))
        #expect(Self.summary(due) == ["pick(1, after: hero, rotating: true, excluding: [])"])
        #expect(state.loading)
        let alone = state.handle(
            .blocksLoaded(all: [Self.hero], eligible: [Self.hero], previous: Self.hero, rotating: true, generation: 1)
        )
        #expect(Self.summary(alone) == ["scheduleRotation(1)"])
        #expect(!state.loading)
        let next = state.handle(
            .blocksLoaded(
                all: [Self.hero, Self.sale],
                eligible: [Self.hero, Self.sale],
                previous: Self.hero,
                rotating: true,
                generation: 1
            )
        )
        #expect(Self.summary(next) == ["loadAssets(sale, 1, redrawing: false)"])
    }

    @Test("Binding a new surface redraws the shown block; with none it blanks, and reloads a load under way")
    func binding() {
        let first = InertSurface()
        var state = Self.makeState(drawing: .surface(first))
        #expect(state.handle(.bind(first)).isEmpty)
        _ = state.handle(.reload(blankingSurface: false))
        let whileLoading = state.handle(.bind(InertSurface()))
        #expect(
            Self.summary(whileLoading) == ["later blankDue(2)", "pick(2, after: -, rotating: false, excluding: [])"]
        )
        _ = state.handle(.stop)
        let idle = state.handle(.bind(InertSurface()))
        #expect(Self.summary(idle) == ["later blankDue(4)"])
        _ = Self.showing(Self.hero, in: &state)
        _ = state.handle(.documentLoaded(Self.hero, .loaded(size: nil), generation: 5, redrawing: false))
        let redraw = state.handle(.bind(nil))
        #expect(Self.summary(redraw) == ["loadAssets(hero, 6, redrawing: true)"])
        #expect(state.handle(.bind(nil)).isEmpty)
    }

    @Test("Blanking waits until it is due, and is skipped once a block is shown or the surface changed")
    func blanking() {
        let surface = InertSurface()
        var state = Self.makeState(drawing: .surface(surface))
        let effects = state.handle(.reload(blankingSurface: true))
        #expect(Self.summary(effects).first == "later blankDue(1)")
        #expect(Self.summary(state.handle(.blankDue(surface, generation: 1))) == ["showBlank"])
        #expect(state.handle(.blankDue(InertSurface(), generation: 1)).isEmpty)
        #expect(state.handle(.blankDue(surface, generation: 0)).isEmpty)
    }

    @Test("A redraw updates the size and announces only a change, without a new show")
    func redraw() {
        var state = Self.makeState()
        state.contentChanged = {}
        _ = Self.showing(Self.hero, in: &state)
        let same = state.handle(.documentLoaded(Self.hero, .loaded(size: nil), generation: 1, redrawing: true))
        #expect(Self.summary(same) == ["later redrawnDue(notify: 0, 1)"])
        let resized = state.handle(.documentLoaded(Self.hero, .loaded(size: Self.size), generation: 1, redrawing: true))
        #expect(Self.summary(resized) == ["later redrawnDue(notify: 1, 1)"])
    }

    @Test("A link the app reports needs a shown block and an allowed scheme")
    func invokedLink() {
        var state = Self.makeState()
        let none = state.handle(.linkInvoked(url: "https://a.example", text: nil, allowedSchemes: ["https"]))
        #expect(Self.summary(none).first?.hasPrefix("tell error(-, invokeLinkClick") == true)
        _ = Self.showing(Self.hero, in: &state)
        let link = state.handle(.linkInvoked(url: "https://a.example", text: "A", allowedSchemes: ["https"]))
        #expect(Self.summary(link) == ["recordInteraction(hero)", "tell link(hero, https://a.example)"])
        let refused = state.handle(.linkInvoked(url: "ftp://a.example", text: nil, allowedSchemes: ["https"]))
        #expect(Self.summary(refused).first?.hasPrefix("tell error(hero, ") == true)
    }
}
