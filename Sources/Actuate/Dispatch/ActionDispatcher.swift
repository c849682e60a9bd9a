import Dispatch
import Foundation
import Synchronization

/// Performs actions: runs each body on its queue under a completion requirement and tells every plugin.
///
/// Apps normally use the shared dispatcher behind ``ActionSession/main``. Tests build their own, with a
/// `TestScheduler` and recording diagnostics, so that nothing is shared between tests:
///
/// ```swift
/// let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
/// let timeline = Timeline(maxEntries: 100)
/// dispatcher.add(plugin: timeline)
/// let session = ActionSession(named: "test", dispatcher: dispatcher)
/// ```
///
/// The body runs inline when the caller is already on the action's queue, and after one asynchronous hop
/// otherwise; the dispatcher never blocks a thread waiting for another queue. Nothing on the dispatch path
/// creates a queue, a lock or a semaphore.
public final class ActionDispatcher: Sendable {
    /// The dispatcher of ``ActionSession/main``.
    public static let shared = ActionDispatcher()

    /// The default time after which an action that has not completed is reported: the `completionTimeout`
    /// default of ``init(scheduler:diagnostics:completionTimeout:loggerFactory:)``.
    package static let defaultCompletionTimeout: Duration = .seconds(10)

    @usableFromInline let scheduler: any ActuateScheduler
    /// With ``SystemScheduler``: the wall-clock time, in seconds since the reference date, at monotonic reading
    /// zero. A dispatch then reads the monotonic clock once and derives the request's date from it, so that the
    /// date and the durations agree exactly; nil with any other scheduler, which is asked for both readings.
    @usableFromInline let systemClockEpoch: Double?
    @usableFromInline let diagnostics: any ActuateDiagnostics
    @usableFromInline let watchdog: CompletionWatchdog
    /// The logger factory, or a placeholder that is never called when there is none (``hasLoggerFactory``).
    /// Not optional: a dispatch calls it on this immutable stored existential, opened in place, where reading an
    /// optional existential copies it, through the generic copy of `Optional`, and counts a reference to it (about
    /// 140 instructions and two atomic operations per dispatch).
    private let loggerFactory: any ActionLoggerFactory
    @usableFromInline let hasLoggerFactory: Bool
    private let plugins: Mutex<Plugins>
    /// The list every new dispatch notifies, read with one atomic load and no lock. Never released through
    /// this reference: ``Plugins/current`` owns the list stored here, and ``Plugins/retired`` each list it
    /// replaced until no dispatch call can still be reading it (``DispatchingThreads``), so a list a dispatch
    /// loaded stays valid while the call runs, and the operation counts a reference to it if it outlives the call.
    @usableFromInline let currentPlugins: Atomic<UnownedReference<PluginList>>
    /// Keeps ``nextRequestID`` off the cache line of the fields before it, which every dispatch reads.
    private let requestIDPaddingBefore = CacheLinePadding()
    /// The next unused request id. With ``SystemScheduler`` the queues take ids from it in blocks
    /// (``requestIDBlocks``), so that a dispatch seldom writes it; with any other scheduler every dispatch adds one
    /// to it, so that ids follow the order of dispatch exactly, as tests expect. Padded on both sides, so that the
    /// line holds nothing else a dispatch reads.
    @usableFromInline let nextRequestID = Atomic<UInt64>(1)
    /// Keeps ``nextRequestID`` off the cache line of the fields after it, and of the next allocation.
    private let requestIDPaddingAfter = CacheLinePadding()
    /// With ``SystemScheduler``, the queues' blocks of request ids; nil with any other scheduler. Read uncounted by
    /// every dispatch: ``requestIDBlocksOwner`` keeps it for this dispatcher's life.
    @usableFromInline let requestIDBlocks: UnownedReference<RequestIDBlocks>?
    private let requestIDBlocksOwner: RequestIDBlocks?
    /// Whether ``dependencies`` holds anything: read relaxed by every dispatch, which takes the lock of
    /// ``dependencyStore`` only when it does.
    @usableFromInline let hasDependencies = Atomic<Bool>(false)
    /// The store of ``dependencies``, nil while none is set.
    @usableFromInline let dependencyStore = Mutex<DependencyStore?>(nil)
    /// The plugin that feeds every stream of ``events(bufferingPolicy:)``; nil until the first stream.
    let eventHubSlot = Mutex<DispatchEventHub?>(nil)

    private struct PluginEntry: Sendable {
        let plugin: any ActionDispatchPlugin
        let identity: ObjectIdentifier?
        let stage: PluginStage
    }

    /// The installed plugins in the order they were added, the list published to dispatches (in stage order, then
    /// that order), and the lists it replaced that a dispatch call may still be reading.
    ///
    /// A dispatch holds the list it loaded without counting a reference while its call runs, so a replaced list is
    /// released only once every thread that was inside a dispatch call when it was replaced has left that call
    /// (``DispatchingThreads``, ``RetiredPluginLists``); checked whenever a plugin is added or removed. An operation
    /// that outlives its call counts a reference to its list. So a removed plugin is released once the last dispatch
    /// that could reach it is done, and a change of plugins leaves no list behind. Event streams come and go inside
    /// one plugin, `DispatchEventHub`, without publishing a list.
    private struct Plugins: Sendable {
        var entries: [PluginEntry] = []
        var current: PluginList
        var retired = RetiredPluginLists<PluginList>()
        /// The number of lists published so far, for tests.
        var publishedCount = 1
        /// The table of the values plugins attach to this dispatcher's requests; made when the first plugin that
        /// may attach values is added.
        var valueTable: UnownedReference<RequestValueTable>?

        init(empty: PluginList) {
            current = empty
        }

        /// Applies `change` to the entries.
        /// - Returns: The list of the changed entries, to publish in place of ``current``.
        mutating func update(_ change: (inout [PluginEntry]) -> Void) -> PluginList {
            change(&entries)
            let sorted = entries.enumerated()
                .sorted { ($0.element.stage, $0.offset) < ($1.element.stage, $1.offset) }
                .map(\.element)
            let valueStageCount = sorted.count { $0.stage <= .enrichment }
            if valueStageCount > 0 && valueTable == nil { valueTable = RequestValueTable.make() }
            let list = PluginList(
                sorted.map(\.plugin),
                valueStageCount: valueStageCount,
                valueTable: valueTable,
                watchdog: current.watchdog,
                systemClockEpoch: current.systemClockEpoch
            )
            return list
        }
    }

    /// Creates a dispatcher with the system clock and diagnostics written to standard error.
    public convenience init() {
        self.init(scheduler: SystemScheduler.shared)
    }

    /// Creates a dispatcher.
    ///
    /// - Parameters:
    ///   - scheduler: The dispatcher's one clock: request dates and durations, which every plugin reads from
    ///     the request, log dates and the completion watchdog.
    ///   - diagnostics: Where programmer errors are reported.
    ///   - completionTimeout: How long an action may take to complete before it is reported, or `nil` to
    ///     never report. The default is 10 seconds. With the system clock and no plugin installed, the dispatch
    ///     reads no clock, and the time counts from when the body returned its deferred status.
    ///   - loggerFactory: Creates the contextual loggers each request receives; `nil` gives disabled loggers.
    public init(
        scheduler: any ActuateScheduler,
        diagnostics: any ActuateDiagnostics = StandardErrorDiagnostics(),
        completionTimeout: Duration? = .seconds(10),
        loggerFactory: (any ActionLoggerFactory)? = nil
    ) {
        self.scheduler = scheduler
        if scheduler is SystemScheduler {
            let uptime = MonotonicClock.nanoseconds
            self.systemClockEpoch = Date().timeIntervalSinceReferenceDate - Double(uptime) / 1e9
            let blocks = RequestIDBlocks()
            self.requestIDBlocksOwner = blocks
            self.requestIDBlocks = UnownedReference(blocks)
        } else {
            self.requestIDBlocksOwner = nil
            self.systemClockEpoch = nil
            self.requestIDBlocks = nil
        }
        self.diagnostics = diagnostics
        self.loggerFactory = loggerFactory ?? NoLoggerFactory()
        self.hasLoggerFactory = loggerFactory != nil
        self.watchdog = CompletionWatchdog(scheduler: scheduler, diagnostics: diagnostics, timeout: completionTimeout)
        let empty = PluginList([], watchdog: watchdog, systemClockEpoch: systemClockEpoch)
        self.plugins = Mutex(Plugins(empty: empty))
        self.currentPlugins = Atomic(UnownedReference(empty))
    }

    /// Adds a plugin. It hears about every action that begins from now on, in its
    /// ``ActionDispatchPlugin/stage`` and, within the stage, after the plugins added before it.
    public func add(plugin: any ActionDispatchPlugin) {
        let entry = PluginEntry(plugin: plugin, identity: Self.identity(of: plugin), stage: plugin.stage)
        let released = plugins.withLock { plugins in
            publish(plugins.update { $0.append(entry) }, in: &plugins)
        }
        // Released here, outside the lock: a plugin's deinit may call this dispatcher.
        _ = consume released
    }

    /// Removes a plugin, identified by object identity. Actions already in flight still complete their
    /// begin/complete pair with it.
    ///
    /// Only class instances can be removed; a value-type plugin stays for the dispatcher's life.
    public func remove(plugin: any ActionDispatchPlugin) {
        guard let identity = Self.identity(of: plugin) else { return }
        let released = plugins.withLock { plugins in
            publish(plugins.update { $0.removeAll { $0.identity == identity } }, in: &plugins)
        }
        _ = consume released
    }

    /// Publishes `list` to new dispatches in place of the current list, which it retires, and releases every
    /// retired list no dispatch call can still be reading; called under the lock of ``plugins``.
    /// - Returns: The lists released, for the caller to drop outside the lock.
    private func publish(_ list: PluginList, in plugins: inout Plugins) -> [PluginList] {
        let replaced = plugins.current
        plugins.current = list
        plugins.publishedCount += 1
        currentPlugins.store(UnownedReference(list), ordering: .releasing)
        orderAfterDispatches()
        let threads = DispatchingThreads.sequences()
        plugins.retired.retire(replaced, threads: threads)
        return plugins.retired.release(threads: threads)
    }

    /// Releases the replaced plugin lists no dispatch call can still be reading, as adding or removing a plugin
    /// does; for tests that wait for other threads to leave their dispatch calls.
    /// - Returns: The number of replaced lists still kept.
    func releaseRetiredPluginLists() -> Int {
        let (released, kept) = plugins.withLock { plugins in
            orderAfterDispatches()
            let released = plugins.retired.release(threads: DispatchingThreads.sequences())
            return (released, plugins.retired.count)
        }
        _ = consume released
        return kept
    }

    /// A read-modify-write, acquiring and releasing, of every location from which a dispatch takes its request id,
    /// after a new list is published and before the threads' dispatch sequences are read: with the dispatch's own
    /// read-modify-write there, it orders each dispatch either before this writer, which then sees the dispatch's
    /// thread inside its call, or after it, and then the dispatch loads the new list (``DispatchingThreads``).
    private func orderAfterDispatches() {
        nextRequestID.wrappingAdd(0, ordering: .acquiringAndReleasing)
        requestIDBlocks?.withObject { $0.orderAfterDispatches() }
    }

    /// The dependency values this dispatcher's actions read with ``ActionContext/dependency(_:)``.
    ///
    /// Keys not set read their ``DependencyKey/liveValue``. A request takes the values when it is dispatched, so
    /// setting them changes what later requests read. An action performed from within a body, through any
    /// session, reads the values of the body that performed it, not those of its own dispatcher.
    ///
    /// A dispatcher with no values set carries none on its requests: a dispatch then reads one flag.
    public var dependencies: DependencyValues {
        get { dependencyStore.withLock { $0?.values } ?? DependencyValues() }
        set {
            dependencyStore.withLock { store in
                store = newValue.isLiveAndEmpty ? nil : DependencyStore(newValue)
                hasDependencies.store(store != nil, ordering: .releasing)
            }
        }
    }

    /// The store a request dispatched now carries: nil when none is set.
    @inlinable
    func currentDependencies() -> DependencyStore? {
        hasDependencies.load(ordering: .relaxed) ? loadDependencies() : nil
    }

    /// Reads the store under its lock; kept out of line, off the common dispatch path.
    @usableFromInline
    func loadDependencies() -> DependencyStore? {
        dependencyStore.withLock { $0 }
    }

    /// The installed plugins, in the order they run: by stage, then in the order they were added.
    ///
    /// The plugin that feeds the streams of ``events(bufferingPolicy:)`` is listed while any stream is live.
    package var installedPlugins: [any ActionDispatchPlugin] {
        plugins.withLock { $0.current.plugins }
            .filter { ($0 as? DispatchEventHub).map { $0.liveStreamCount > 0 } ?? true }
    }

    /// The number of plugin lists published so far (one at init, one per add or remove), for tests.
    var publishedPluginListCount: Int { plugins.withLock { $0.publishedCount } }

    /// The number of replaced plugin lists still kept because a dispatch call may be reading them, for tests.
    var retiredPluginListCount: Int { plugins.withLock { $0.retired.count } }

    /// The number of actions that promised to complete asynchronously and have not yet.
    package var pendingAsyncCompletions: Int { watchdog.trackedCount }

    private static func identity(of plugin: any ActionDispatchPlugin) -> ObjectIdentifier? {
        guard type(of: plugin) is AnyObject.Type else { return nil }
        return ObjectIdentifier(plugin as AnyObject)
    }

    /// Performs `A` as an action of `F`: the one entry point every binding and session uses.
    ///
    /// Inlinable, so that it is specialized for each action where it is performed: an unspecialized dispatch
    /// would spend most of its time looking up generic metadata.
    /// - Returns: The request's ``ActionRequest/uniqueID``, or nil when the feature never declared the action.
    @inlinable
    @discardableResult
    func dispatch<F: FeatureDefinition, A: Action>(
        _ binding: StaticActionBinding<F, A>,
        session: String,
        input: A.InputType,
        presenter: A.PresenterType,
        userInitiated: Bool,
        source: consuming ActionSource,
        cancellation: ActionCancellation?,
        dependencies explicitDependencies: DependencyStore? = nil,
        completion: consuming CallerCompletion
    ) -> UInt64? {
        // Every reference read here is held without counting: the resolution by the binding's cache (alive
        // for this call), the metadata by the registry, the plugin list by this dispatcher until this thread leaves
        // the call (`DispatchingThreads`).
        let resolution = binding.resolved()
        let feature = resolution.withObject { $0.feature }
        guard let action = resolution.withObject({ $0.action }) else {
            reportUndeclared(A.self, of: feature.object, session: session, completion: completion)
            return nil
        }
        let marker = resolution.withObject { $0.marker }
        // In this order: the thread is marked inside a dispatch call, the id's read-modify-write (acquiring and
        // releasing) orders this dispatch against a writer of the plugin list, then the list is loaded.
        let entered = DispatchingThreads.enter(key: marker.withObject { $0.runningQueueKey })
        let queueIndex = marker.withObject { $0.index }
        let uniqueID: UInt64
        if let requestIDBlocks {
            uniqueID = requestIDBlocks.withObject { $0.nextID(queueIndex: queueIndex, counter: nextRequestID) }
        } else {
            uniqueID = nextRequestID.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
        }
        let plugins = currentPlugins.load(ordering: .acquiring)
        let hasPlugins = !plugins.withObject { $0.isEmpty }
        let start: UInt64
        let date: Date
        if let systemClockEpoch {
            if hasPlugins {
                start = MonotonicClock.nanoseconds
                date = Date(timeIntervalSinceReferenceDate: systemClockEpoch + Double(start) / 1e9)
            } else {
                // No plugin hears this request, so nothing reads its date or start: the clock is read only if the
                // body completes later, when the operation starts watching it (`trackUntilCompleted`).
                start = Self.unreadSystemClock
                date = Date(timeIntervalSinceReferenceDate: systemClockEpoch)
            }
        } else {
            date = scheduler.now()
            start = scheduler.uptimeNanoseconds()
        }
        // The header is made in the argument, so that it moves into the operation rather than being copied.
        let operation = RequestOperation<F, A, A.InputType?>(
            header: RequestHeader(
                uniqueID: uniqueID,
                date: date,
                startUptimeNanoseconds: start,
                feature: feature,
                action: action,
                queueIndex: queueIndex,
                sessionName: session,
                userInitiated: userInitiated,
                source: source,
                inputDescription: hasPlugins ? input.loggingDescription : "",
                logs: hasLoggerFactory
                    ? makeLogs(
                        feature: feature.object,
                        action: action.object,
                        session: session
                    )
                    : nil,
                cancellation: cancellation,
                dependencies: explicitDependencies ?? DependencyStore.ofCaller() ?? currentDependencies()
            ),
            input: input,
            plugins: plugins,
            queueMarker: marker,
            completion: completion
        )
        // The operation holds its plugin list uncounted while this call runs, and counted only once it outlives the
        // call: see `DispatchOperation.plugins`. It holds no reference to this dispatcher.
        if marker.withObject({ $0.isCurrent }) {
            Self.run(operation, presenter: presenter, in: entered.cell)
            // Moved into a variable for the uniqueness test; the operation stays a `let` elsewhere, since the
            // hops below would copy a `var` into their closures, one more retain and release per hop.
            var ran = consume operation
            // Still referenced elsewhere: the body kept its completion (to complete later, or again).
            if !isKnownUniquelyReferenced(&ran) { ran.keepPlugins() }
        } else if let nesting = ActionNesting.ofCaller() {
            // Performed from within an async body: the hop loses the caller's task-locals, so the body runs
            // inside the caller's nesting again, and what it performs, or the async body it starts, is nested.
            operation.keepPlugins()
            A.queue.async {
                ActionNesting.run(inside: nesting) {
                    Self.run(operation, presenter: presenter, in: RunningQueue.cell(of: operation.queueMarker))
                }
            }
        } else {
            operation.keepPlugins()
            A.queue.async {
                Self.run(operation, presenter: presenter, in: RunningQueue.cell(of: operation.queueMarker))
            }
        }
        DispatchingThreads.leave(entered)
        return uniqueID
    }

    /// Runs one request on its action's queue: plugins hear it begin, the body runs, its status is checked.
    ///
    /// While the body runs, ``RunningQueue`` records the queue for this thread, so that what the body performs
    /// on the same queue is recognised as inline with one thread-local read.
    ///
    /// - Parameter cell: This thread's ``RunningQueue`` cell, which an inline dispatch already read.
    @inlinable
    static func run<F: FeatureDefinition, A: Action>(
        _ operation: RequestOperation<F, A, A.InputType?>,
        presenter: A.PresenterType,
        in cell: RunningQueue.Cell
    ) {
        let previous = RunningQueue.enter(operation.queueMarker, in: cell)
        if let dependencies = operation.header.dependencies {
            // What the body performs inherits the request's values (`DependencyStore.current`).
            let status = DependencyStore.run(with: dependencies) { runBody(operation, presenter: presenter) }
            operation.check(status)
        } else {
            operation.check(runBody(operation, presenter: presenter))
        }
        RunningQueue.leave(restoring: previous)
    }

    /// Runs a request's body, after telling the plugins that it begins, and returns the status the body returned.
    @inlinable
    static func runBody<F: FeatureDefinition, A: Action>(
        _ operation: RequestOperation<F, A, A.InputType?>,
        presenter: A.PresenterType
    ) -> CompletionStatus {
        let status: CompletionStatus
        if operation.notifier != nil {
            // The request is made once, borrowing the operation's header and input, lent in place to the plugins,
            // and, when the body completes before it returns, on this thread, to the completion notifier.
            let makeRequest = { (header: consuming RequestHeader, input: consuming A.InputType) in
                ActionRequest<F, A>(header: header, input: input)
            }
            status = operation.withBorrowedRequest(making: makeRequest) { request in
                operation.lending(
                    &request.pointee,
                    preparing: { request in
                        operation.plugins.withObject { plugins in
                            if plugins.valueTable == nil {
                                plugins.notifyWillBegin(request)
                            } else {
                                plugins.notifyWillBeginWithValues(request)
                            }
                        }
                    },
                    while: {
                        operation.withLentContext { context in
                            A.perform(context: context, presenter: presenter, completion: operation)
                        }
                    }
                )
            }
        } else {
            // No plugin hears the request: the context is lent from the header in place.
            status = operation.withLentContext { context in
                A.perform(context: context, presenter: presenter, completion: operation)
            }
        }
        return status
    }

    /// The start reading of a request that no plugin hears, on the system clock, whose clock the dispatch did
    /// not read: no monotonic reading of the system clock is zero.
    @usableFromInline static var unreadSystemClock: UInt64 { 0 }

    /// The loggers of one request: disabled unless a logger factory is installed.
    @usableFromInline
    func makeLogs(feature: FeatureMetadata, action: ActionMetadata, session: String) -> ActionLogs? {
        guard hasLoggerFactory else { return nil }
        return loggerFactory.makeLogs(feature: feature, action: action, session: session, clock: scheduler)
    }

    @usableFromInline
    func reportMissingSession<A: Action>(_ action: A.Type, completion: CallerCompletion) {
        diagnostics.report(
            ActuateDiagnostic(
                kind: .missingSession,
                actionName: A.name,
                featurePath: FeaturePath([]),
                sessionName: "",
                message: "The action's defaultSession is nil; perform it through an ActionSession."
            )
        )
        completion(.failure(error: ActuateError.missingSession(action: A.name)))
    }

    @usableFromInline
    func reportUndeclared<A: Action>(
        _ action: A.Type,
        of feature: FeatureMetadata,
        session: String,
        completion: CallerCompletion
    ) {
        let error = ActuateError.undeclaredAction(action: A.name, feature: feature.path.description)
        diagnostics.report(
            ActuateDiagnostic(
                kind: .undeclaredAction,
                actionName: A.name,
                featurePath: feature.path,
                sessionName: session,
                message: error.description
            )
        )
        completion(.failure(error: error))
    }
}

/// The placeholder of a dispatcher without a logger factory: never called, since the dispatcher asks for loggers
/// only when it has a factory.
private struct NoLoggerFactory: ActionLoggerFactory {
    func makeLogs(
        feature: FeatureMetadata,
        action: ActionMetadata,
        session: String,
        clock: any ActuateScheduler
    ) -> ActionLogs {
        .disabled
    }
}

/// Creates the contextual loggers of each request, for example from a focus selection.
public protocol ActionLoggerFactory: Sendable {
    /// The loggers for one request.
    ///
    /// - Parameters:
    ///   - feature: The feature the action belongs to.
    ///   - action: The action.
    ///   - session: The session the request runs in.
    ///   - clock: The dispatcher's clock, for the dates of what the loggers write.
    /// - Returns: The request's development and production loggers.
    func makeLogs(
        feature: FeatureMetadata,
        action: ActionMetadata,
        session: String,
        clock: any ActuateScheduler
    ) -> ActionLogs
}
