import ActuateReporting
import ActuateTesting
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins

/// Everything a content-block test needs, built fresh per test: virtual time, a reporter on a memory store,
/// a dispatcher with a timeline, a history directory in a temporary folder, and queues that are not the main
/// queue. ``relaunch(source:)`` builds a new reporter and manager on the same store, identity and directory,
/// as the next launch of the app would.
final class ContentBlockFixture: Sendable {
    let scheduler = TestScheduler()
    let store = MemoryEventStore()
    let identityStorage = MemoryIdentityStorage()
    let dispatcher: ActionDispatcher
    let timeline: Timeline
    let session: ActionSession
    let directory: URL
    let workQueue = DispatchQueue(label: "content-block-tests.work")
    let callbackQueue = DispatchQueue(label: "content-block-tests.callbacks")
    let opener = RecordingURLOpener()
    private let current: Mutex<(reporter: Reporter, manager: ContentBlockManager?)>

    init() {
        dispatcher = ActionDispatcher(scheduler: scheduler, completionTimeout: nil)
        timeline = Timeline(maxEntries: 500)
        dispatcher.add(plugin: timeline)
        session = ActionSession(named: "content-blocks", dispatcher: dispatcher)
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("content-block-tests-\(UUID().uuidString)")
        current = Mutex((Self.makeReporter(store, identityStorage, scheduler), nil))
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    var reporter: Reporter { current.withLock { $0.reporter } }

    /// The configuration tests use: virtual time, test queues, the test session and the recording opener.
    func configuration(
        historyRetention: Duration = .seconds(30 * 24 * 3600),
        allowedLinkSchemes: Set<String> = ["http", "https", "shop"]
    ) -> ContentBlockConfiguration {
        ContentBlockConfiguration(
            scheduler: scheduler,
            session: session,
            workQueue: workQueue,
            callbackQueue: callbackQueue,
            urlOpener: opener,
            historyRetention: historyRetention,
            allowedLinkSchemes: allowedLinkSchemes
        )
    }

    /// Creates the manager for `source` (on the current reporter).
    func makeManager(
        _ source: any ContentBlockSource,
        configuration: ContentBlockConfiguration? = nil
    ) -> ContentBlockManager {
        let manager = ContentBlockManager(
            source: source,
            reporter: reporter,
            directory: directory,
            configuration: configuration ?? self.configuration()
        )
        current.withLock { $0.manager = manager }
        return manager
    }

    /// Simulates the next launch: a new reporter on the same store and identity, and a new manager on the same
    /// directory.
    func relaunch(_ source: any ContentBlockSource) -> ContentBlockManager {
        current.withLock { $0 = (Self.makeReporter(store, identityStorage, scheduler), nil) }
        return makeManager(source)
    }

    /// Advances virtual time by `interval`, `times` times, and after each step waits until `manager` has
    /// finished what the step started.
    /// - Parameters:
    ///   - interval: One step.
    ///   - times: How many steps.
    ///   - manager: The manager to wait for.
    func advance(by interval: Duration, times: Int = 1, waitingFor manager: ContentBlockManager) async {
        for _ in 0..<times {
            scheduler.advance(by: interval)
            await manager.waitUntilIdle()
        }
    }

    /// The content-block events stored so far, oldest first, without session boundaries.
    func blockEvents() throws -> [ReportEvent] {
        try store.fetch(count: 10_000, maxBytes: Int.max / 2).filter {
            $0.properties[ReportEventKey.contentSource]?.stringValue == ContentSource.contentBlock.rawValue
                || $0.type == ContentBlockEventKey.blockErrorType.rawValue
        }
    }

    /// The stored content-block events as `type:blockId` strings, oldest first.
    func eventSummary() throws -> [String] {
        try blockEvents().map { "\($0.type):\($0.properties[ReportEventKey.actionID]?.stringValue ?? "-")" }
    }

    private static func makeReporter(
        _ store: MemoryEventStore,
        _ identity: MemoryIdentityStorage,
        _ scheduler: TestScheduler
    ) -> Reporter {
        Reporter(store: store, delivery: nil, scheduler: scheduler, identity: Identity(storage: identity))
    }
}

extension ContentBlockManager {
    /// A deferred placeholder on this manager with a ``RecordingContentBlockCallback`` installed; nothing loads
    /// until the test reloads it.
    /// - Parameters:
    ///   - placeholderID: The placeholder's id.
    ///   - surface: Where it draws its block, or nil for none.
    ///   - carousel: Its rotation, or nil to show one block.
    ///   - callThrough: Whether the recording callback calls the placeholder's default callback too.
    /// - Returns: The placeholder and its callback.
    func deferredPlaceholder(
        _ placeholderID: String = "home",
        surface: (any HTMLSurface)? = nil,
        carousel: ContentBlockCarousel? = nil,
        callThrough: Bool = true
    ) -> (placeholder: ContentBlockPlaceholder, callback: RecordingContentBlockCallback) {
        let placeholder = ContentBlockPlaceholder(
            placeholderID: placeholderID,
            deferredLoad: true,
            manager: self,
            surface: surface,
            carousel: carousel
        )
        return (placeholder, RecordingContentBlockCallback.install(on: placeholder, callThrough: callThrough))
    }

    /// A ``deferredPlaceholder(_:surface:carousel:callThrough:)`` loaded once, after everything the load
    /// started has finished.
    func loadedPlaceholder(
        _ placeholderID: String = "home",
        surface: (any HTMLSurface)? = nil,
        carousel: ContentBlockCarousel? = nil,
        callThrough: Bool = true
    ) async -> (placeholder: ContentBlockPlaceholder, callback: RecordingContentBlockCallback) {
        let loaded = deferredPlaceholder(
            placeholderID,
            surface: surface,
            carousel: carousel,
            callThrough: callThrough
        )
        await loaded.placeholder.reloadAndWait(self)
        return loaded
    }
}

/// Loads a placeholder and waits until everything it started has finished.
extension ContentBlockPlaceholder {
    func reloadAndWait(_ manager: ContentBlockManager) async {
        reload()
        await manager.waitUntilIdle()
    }
}

/// A ``ContentBlockURLOpener`` that records the URLs it is asked to open.
final class RecordingURLOpener: ContentBlockURLOpener {
    private let urls = Mutex<[URL]>([])

    func open(_ url: URL) {
        urls.withLock { $0.append(url) }
    }

    var opened: [URL] { urls.withLock { $0 } }
}

extension ContentBlockSource {
    /// The source's answer for `placeholderIDs` as a result; an error that is not a ``ContentBlockError`` is recorded
    /// as an issue, since the sources of the module throw nothing else.
    func result(
        placeholderIDs: [String] = ["home"],
        identity: StoredIdentity = StoredIdentity(anonymousID: "anon-1")
    ) async -> Result<[ContentBlock], ContentBlockError> {
        do {
            return .success(try await loadBlocks(placeholderIDs: placeholderIDs, identity: identity))
        } catch let error as ContentBlockError {
            return .failure(error)
        } catch {
            Issue.record("\(Self.self) threw \(error), not a ContentBlockError")
            return .failure(.sourceFailed(source: "\(Self.self)", reason: "\(error)"))
        }
    }
}

/// A ``ContentBlockSource`` for tests: serves blocks set by the test, counts requests, notes whether each
/// request came on the main thread, and can be told to fail.
final class ScriptedContentBlockSource: ContentBlockSource {
    private struct State {
        var blocks: [ContentBlock]
        var failure: ContentBlockError?
        var requests: [[String]] = []
        var identities: [StoredIdentity] = []
        var onMainThread: [Bool] = []
    }

    private let state: Mutex<State>

    init(_ blocks: [ContentBlock]) {
        state = Mutex(State(blocks: blocks))
    }

    /// Replaces the blocks served from now on.
    func serve(_ blocks: [ContentBlock]) {
        state.withLock { $0.blocks = blocks }
    }

    /// Makes every request fail with `error`, or succeed again with nil.
    func fail(with error: ContentBlockError?) {
        state.withLock { $0.failure = error }
    }

    /// The placeholder ids of each request, oldest first.
    var requests: [[String]] { state.withLock { $0.requests } }

    /// The identity each request was made for, oldest first.
    var identities: [StoredIdentity] { state.withLock { $0.identities } }

    /// Whether each request ran on the main thread, oldest first.
    var onMainThread: [Bool] { state.withLock { $0.onMainThread } }

    func loadBlocks(placeholderIDs: [String], identity: StoredIdentity) async throws -> [ContentBlock] {
        let result = state.withLock { state -> Result<[ContentBlock], ContentBlockError> in
            state.requests.append(placeholderIDs)
            state.identities.append(identity)
            state.onMainThread.append(Thread.isMainThread)
            if let failure = state.failure { return .failure(failure) }
            return .success(state.blocks.filter { !Set(placeholderIDs).isDisjoint(with: $0.placeholders) })
        }
        return try result.get()
    }
}

/// An ``HTMLSurface`` that finishes every load at once with a scripted result, records the documents, and lets
/// the test post bridge messages from the latest page.
final class InstantHTMLSurface: HTMLSurface {
    private struct State {
        var documents: [String] = []
        var onMessage: (@Sendable (String) -> Void)?
        var result: HTMLSurfaceLoadResult
    }

    private let state: Mutex<State>

    init(result: HTMLSurfaceLoadResult = .loaded(size: HTMLContentSize(width: 320, height: 120))) {
        state = Mutex(State(result: result))
    }

    /// Changes the result of later loads.
    func finishLoads(with result: HTMLSurfaceLoadResult) {
        state.withLock { $0.result = result }
    }

    func load(
        html: String,
        bridgeName: String,
        onMessage: @escaping @Sendable (String) -> Void,
        completion: @escaping @Sendable (HTMLSurfaceLoadResult) -> Void
    ) {
        let result = state.withLock { state -> HTMLSurfaceLoadResult in
            state.documents.append(html)
            state.onMessage = onMessage
            return state.result
        }
        completion(result)
    }

    /// Every document loaded, oldest first.
    var documents: [String] { state.withLock { $0.documents } }

    /// Posts `message` from the latest page, as it is: a message a script of the page posts itself.
    func post(_ message: String) {
        state.withLock { $0.onMessage }?(message)
    }

    /// Posts `message`, a JSON object's text, from the latest page as its bridge script would: with the page's
    /// token.
    func postFromBridge(_ message: String) {
        post(BridgeTokenReader.signed(message, token: latestToken))
    }

    /// The token of the latest document, read from its bridge script.
    var latestToken: String? {
        documents.last.flatMap(BridgeTokenReader.token(in:))
    }
}

/// A ``ContentBlockCallback`` that records each call and then calls through to the original behaviour, as
/// the Exponea documentation recommends for custom callbacks.
final class RecordingContentBlockCallback: ContentBlockCallback {
    enum Call: Sendable, Hashable {
        case shown(String, blockID: String)
        case noMessage(String)
        case error(String, blockID: String?, message: String)
        case closeClicked(String, blockID: String)
        case actionClicked(String, blockID: String, url: String, text: String?)
    }

    private let original: (any ContentBlockCallback)?
    private let recorded = Mutex<[Call]>([])
    private let ready = Mutex<[Bool]>([])

    /// Creates a callback that calls through to `original`, or to nothing.
    init(wrapping original: (any ContentBlockCallback)?) {
        self.original = original
    }

    /// Installs a recording callback on `placeholder`, wrapping its default behaviour, and records
    /// `contentReadyCompletion` too.
    @discardableResult
    static func install(
        on placeholder: ContentBlockPlaceholder,
        callThrough: Bool = true
    ) -> RecordingContentBlockCallback {
        let callback = RecordingContentBlockCallback(wrapping: callThrough ? placeholder.behaviourCallback : nil)
        placeholder.behaviourCallback = callback
        placeholder.contentReadyCompletion = { loaded in callback.ready.withLock { $0.append(loaded) } }
        return callback
    }

    var calls: [Call] { recorded.withLock { $0 } }

    /// The ids of the blocks shown, in order.
    var shownBlockIDs: [String] {
        calls.compactMap { call -> String? in
            if case .shown(_, let id) = call { return id }
            return nil
        }
    }
    var readyValues: [Bool] { ready.withLock { $0 } }

    func onMessageShown(placeholderID: String, contentBlock: ContentBlock) {
        recorded.withLock { $0.append(.shown(placeholderID, blockID: contentBlock.id)) }
        original?.onMessageShown(placeholderID: placeholderID, contentBlock: contentBlock)
    }

    func onNoMessageFound(placeholderID: String) {
        recorded.withLock { $0.append(.noMessage(placeholderID)) }
        original?.onNoMessageFound(placeholderID: placeholderID)
    }

    func onError(placeholderID: String, contentBlock: ContentBlock?, errorMessage: String) {
        recorded.withLock { $0.append(.error(placeholderID, blockID: contentBlock?.id, message: errorMessage)) }
        original?.onError(placeholderID: placeholderID, contentBlock: contentBlock, errorMessage: errorMessage)
    }

    func onCloseClicked(placeholderID: String, contentBlock: ContentBlock) {
        recorded.withLock { $0.append(.closeClicked(placeholderID, blockID: contentBlock.id)) }
        original?.onCloseClicked(placeholderID: placeholderID, contentBlock: contentBlock)
    }

    func onLinkClicked(placeholderID: String, contentBlock: ContentBlock, link: ContentBlockLink) {
        recorded.withLock {
            $0.append(.actionClicked(placeholderID, blockID: contentBlock.id, url: link.url, text: link.text))
        }
        original?.onLinkClicked(placeholderID: placeholderID, contentBlock: contentBlock, link: link)
    }
}

extension ContentBlock {
    /// A block for tests, shown in `placeholders`.
    static func test(
        _ id: String,
        name: String? = nil,
        placeholders: [String] = ["home"],
        priority: Int = 0,
        frequency: ContentBlockFrequency = .always,
        html: String? = nil,
        version: Int = 0,
        timeToLive: Duration? = nil,
        hasTrackingConsent: Bool? = nil
    ) -> ContentBlock {
        ContentBlock(
            id: id,
            name: name ?? "Block \(id)",
            placeholders: placeholders,
            html: html
                ?? "<p>\(id)</p><a href=\"https://shop.example.com/\(id)\">Open \(id)</a><button data-actuate-close>×</button>",
            priority: priority,
            frequency: frequency,
            variant: ContentBlockVariant(id: "v-\(id)", name: "Variant of \(id)"),
            version: version,
            timeToLive: timeToLive,
            hasTrackingConsent: hasTrackingConsent
        )
    }
}
