import Actuate
import ActuateReporting
import Dispatch
import Foundation
import Synchronization

/// The shared machinery behind a ``ContentBlockManager`` and its placeholders: the block cache, the display
/// history, assets, queue hops and tracking.
///
/// File and network work runs on the configuration's work queue. Methods marked "work queue" must be called
/// there; the rest may be called anywhere.
final class ContentBlockEngine: Sendable {
    struct CacheEntry: Sendable {
        var blocks: [ContentBlock]
        /// When personalized content in the entry expires, on the scheduler's uptime clock.
        var expiresAt: Duration?
    }

    private struct State {
        var cache: [String: CacheEntry] = [:]
        var cacheGeneration = 0
        var prefetchIDs: [String] = []
        var history: ContentBlockHistory?
        var lastError: ContentBlockError?
        /// The source's failure already passed to `onError`, until the source answers again: a prefetch and the
        /// placeholders that load after it meet one failure, reported once.
        var reportedSourceFailure: ContentBlockError?
    }

    let source: any ContentBlockSource
    let reporter: Reporter
    let configuration: ContentBlockConfiguration
    let assets: ContentBlockAssetCache
    let work = ContentBlockWorkCounter()
    private let historyStore: ContentBlockHistoryStore
    private let state = Mutex(State())

    init(source: any ContentBlockSource, reporter: Reporter, directory: URL, configuration: ContentBlockConfiguration) {
        var configuration = configuration
        if configuration.workQueue === DispatchQueue.main {
            configuration.workQueue = DispatchQueue(label: "actuate.personalization.content-blocks.work")
        }
        self.source = source
        self.reporter = reporter
        self.configuration = configuration
        self.historyStore = ContentBlockHistoryStore(directory: directory)
        self.assets = ContentBlockAssetCache(
            directory: directory.appendingPathComponent("assets"),
            downloader: ContentBlockAssetDownloader(configuration: configuration),
            workQueue: configuration.workQueue,
            maxBytes: configuration.maxAssetCacheBytes
        )
    }

    // MARK: Queues

    /// Runs `body` on the work queue, counted as work in flight.
    func onWorkQueue(_ body: @escaping @Sendable () -> Void) {
        work.begin()
        configuration.workQueue.async {
            body()
            self.work.end()
        }
    }

    /// Runs `body` on the callback queue, counted as work in flight.
    func onCallbackQueue(_ body: @escaping @Sendable () -> Void) {
        work.begin()
        configuration.callbackQueue.async {
            body()
            self.work.end()
        }
    }

    // MARK: Blocks

    /// The blocks for `placeholderId`, from the cache while it is fresh, otherwise from the source. Work queue;
    /// `completion` runs on the work queue.
    func blocks(
        for placeholderID: String,
        completion: @escaping @Sendable (Result<[ContentBlock], ContentBlockError>) -> Void
    ) {
        let now = configuration.scheduler.uptime()
        let cached = state.withLock { $0.cache[placeholderID] }
        if let cached, cached.expiresAt.map({ now < $0 }) ?? true {
            completion(.success(cached.blocks))
            return
        }
        fetch([placeholderID]) { result in
            completion(result.map { blocks in blocks.filter { $0.placeholders.contains(placeholderID) } })
        }
    }

    /// Loads blocks for `ids` from the source and caches them per placeholder. Work queue; `completion` runs on
    /// the work queue.
    func fetch(_ ids: [String], completion: @escaping @Sendable (Result<[ContentBlock], ContentBlockError>) -> Void) {
        let generation = state.withLock { $0.cacheGeneration }
        let identity = reporter.identity.current
        work.begin()
        // The source is asked from a task of its own, off the work queue (an async source may suspend for the
        // network), and its answer comes back to the work queue, where the cache and the callbacks live.
        Task {
            let result = await Self.load(ids, identity: identity, from: self.source)
            self.configuration.workQueue.async {
                switch result {
                case .success(let blocks):
                    self.state.withLock { $0.reportedSourceFailure = nil }
                    self.store(blocks, for: ids, generation: generation)
                case .failure(let error):
                    let repeated = self.state.withLock { state -> Bool in
                        defer { state.reportedSourceFailure = error }
                        return state.reportedSourceFailure == error
                    }
                    if !repeated { self.report(error) }
                }
                completion(result)
                self.work.end()
            }
        }
    }

    /// Asks `source` for the blocks of `ids`: its answer, or what it threw as a ``ContentBlockError``.
    private static func load(
        _ ids: [String],
        identity: StoredIdentity,
        from source: any ContentBlockSource
    ) async -> Result<[ContentBlock], ContentBlockError> {
        do {
            return .success(try await source.loadBlocks(placeholderIDs: ids, identity: identity))
        } catch let error as ContentBlockError {
            return .failure(error)
        } catch {
            return .failure(.sourceFailed(source: String(describing: type(of: source)), reason: "\(error)"))
        }
    }

    private func store(_ blocks: [ContentBlock], for ids: [String], generation: Int) {
        let now = configuration.scheduler.uptime()
        state.withLock { state in
            guard state.cacheGeneration == generation else { return }
            for id in ids {
                let matching = blocks.filter { $0.placeholders.contains(id) }
                let lifetime = matching.compactMap(\.timeToLive).min()
                state.cache[id] = CacheEntry(blocks: matching, expiresAt: lifetime.map { now + $0 })
            }
        }
    }

    /// Remembers `ids` for later prefetches, then loads their blocks and the assets those blocks need.
    func prefetch(_ ids: [String]) {
        state.withLock { state in
            for id in ids where !state.prefetchIDs.contains(id) { state.prefetchIDs.append(id) }
        }
        guard !ids.isEmpty else { return }
        onWorkQueue {
            self.fetch(ids) { result in
                guard case .success(let blocks) = result else { return }
                for block in blocks {
                    self.work.begin()
                    self.assets.load(ContentBlockDocument.assetURLs(of: block), version: block.version) { _ in
                        self.work.end()
                    }
                }
            }
        }
    }

    /// Forgets cached blocks (and, for a new visitor, the display history), then prefetches again.
    func invalidate(clearingHistory: Bool) {
        let ids = state.withLock { state -> [String] in
            state.cacheGeneration += 1
            state.cache = [:]
            return state.prefetchIDs
        }
        if clearingHistory {
            onWorkQueue {
                self.state.withLock { $0.history = ContentBlockHistory() }
                self.save(ContentBlockHistory())
            }
        }
        prefetch(ids)
    }

    // MARK: History

    /// The blocks `placeholderId` may show now, in display order. Work queue.
    func eligible(
        _ blocks: [ContentBlock],
        placeholderID: String,
        excluding: Set<String>,
        maxCount: Int?
    ) -> [ContentBlock] {
        let history = updateHistory {
            $0.prune(now: configuration.scheduler.now(), retention: configuration.historyRetention)
        }
        return ContentBlockSelection.eligible(
            blocks,
            placeholderID: placeholderID,
            history: history,
            visit: reporter.currentSession?.id,
            excluding: excluding,
            maxCount: maxCount
        )
    }

    /// Notes that `block` was shown now, in the current visit (starting one if none is running). Work queue.
    func recordShown(_ block: ContentBlock) {
        let visit = (reporter.currentSession ?? reporter.startNewSession()).id
        let now = configuration.scheduler.now()
        updateHistory { history in
            history.recordShown(block, at: now, visit: visit)
            return true
        }
    }

    /// Notes that the visitor clicked or closed `block` now. Work queue.
    func recordInteraction(_ block: ContentBlock) {
        let now = configuration.scheduler.now()
        updateHistory { history in
            history.recordInteraction(block.id, at: now)
            return true
        }
    }

    /// Applies `change` to the history, loading it first if needed, and saves it when `change` returns true.
    @discardableResult
    private func updateHistory(_ change: (inout ContentBlockHistory) -> Bool) -> ContentBlockHistory {
        if state.withLock({ $0.history == nil }) {
            let (loaded, problem) = historyStore.load()
            if let problem { report(problem) }
            state.withLock { state in
                if state.history == nil { state.history = loaded }
            }
        }
        let (history, changed) = state.withLock { state -> (ContentBlockHistory, Bool) in
            var history = state.history ?? ContentBlockHistory()
            let changed = change(&history)
            state.history = history
            return (history, changed)
        }
        if changed { save(history) }
        return history
    }

    private func save(_ history: ContentBlockHistory) {
        do throws(ContentBlockError) {
            try historyStore.save(history)
        } catch {
            report(error)
        }
    }

    // MARK: Tracking and errors

    /// Performs the tracking action for `event` through the dispatcher.
    func track(_ event: ContentBlockEvent) {
        work.begin()
        let done: @Sendable (ActionOutcome) -> Void = { _ in self.work.end() }
        let actionSession = configuration.actionSession
        switch event.kind {
        case .show:
            actionSession.perform(
                PersonalizationFeature.showContentBlock,
                input: event,
                presenter: reporter,
                completion: done
            )
        case .click:
            actionSession.perform(
                PersonalizationFeature.clickContentBlock,
                input: event,
                presenter: reporter,
                completion: done
            )
        case .close:
            actionSession.perform(
                PersonalizationFeature.closeContentBlock,
                input: event,
                presenter: reporter,
                completion: done
            )
        case .error:
            actionSession.perform(
                PersonalizationFeature.reportContentBlockError,
                input: event,
                presenter: reporter,
                completion: done
            )
        }
    }

    /// Keeps `error` as the last problem and passes it to the configuration's handler.
    func report(_ error: ContentBlockError) {
        state.withLock { $0.lastError = error }
        configuration.onError?(error)
    }

    var lastError: ContentBlockError? { state.withLock { $0.lastError } }
}
