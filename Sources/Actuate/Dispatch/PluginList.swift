/// An immutable list of a dispatcher's plugins in the order they run, as one dispatch sees it, with what the
/// dispatch's operation needs when it completes.
///
/// The dispatcher publishes a new list with one atomic store whenever a plugin is added or removed, and keeps the
/// list it replaced until no dispatch call can still be reading it (``DispatchingThreads``), so a dispatch reads the
/// current list with one atomic load and holds it without a reference count while the call runs. An operation that
/// outlives the call counts a reference to its list (`DispatchOperation.keepPlugins()`), and reaches the watchdog
/// and the clock through the list, not through the dispatcher, which it does not keep.
@usableFromInline
final class PluginList: Sendable {
    /// The plugins, by stage and then in the order they were added.
    let plugins: [any ActionDispatchPlugin]
    /// The same plugins, each in a box that the list owns, so that a dispatch calls a plugin on the box's
    /// immutable stored existential, opened in place: reading an element of an array of existentials copies it,
    /// which retains a class plugin and releases it again after the call, two atomic operations per plugin and
    /// stage.
    @usableFromInline let boxes: OwnedObjects<PluginBox>
    /// Whether the list is empty: a dispatch with no plugins skips every plugin step.
    @usableFromInline let isEmpty: Bool
    /// How many plugins, at the start of the list, are in the ``PluginStage/before`` and
    /// ``PluginStage/enrichment`` stages, which may attach values to a request (``ActionRequest/attach(_:for:)``).
    @usableFromInline let valueStageCount: Int
    /// The dispatcher's table of request values; nil when `valueStageCount` is zero, and then no request of this
    /// list has values and the dispatch does no work for them. Unretained: `RequestValueTable.all` keeps every
    /// table for the life of the process.
    @usableFromInline let valueTable: UnownedReference<RequestValueTable>?
    /// The number of `valueTable` (``RequestValueTable/number``), or 0 without one.
    @usableFromInline let valueTableNumber: UInt32
    /// The dispatcher's completion watchdog, which also holds its clock and diagnostics.
    @usableFromInline let watchdog: CompletionWatchdog
    /// The dispatcher's `systemClockEpoch`: non-nil when its clock is ``SystemScheduler``.
    @usableFromInline let systemClockEpoch: Double?

    /// Creates a list of `plugins` in the order they run, of which the first `valueStageCount` are in a stage
    /// that may attach values to the requests, in `valueTable`, for the dispatcher with `watchdog` and
    /// `systemClockEpoch`.
    init(
        _ plugins: [any ActionDispatchPlugin],
        valueStageCount: Int = 0,
        valueTable: UnownedReference<RequestValueTable>? = nil,
        watchdog: CompletionWatchdog,
        systemClockEpoch: Double?
    ) {
        self.watchdog = watchdog
        self.systemClockEpoch = systemClockEpoch
        self.plugins = plugins
        self.boxes = OwnedObjects(plugins.map(PluginBox.init))
        self.isEmpty = plugins.isEmpty
        self.valueStageCount = valueTable == nil ? 0 : valueStageCount
        self.valueTable = valueStageCount == 0 ? nil : valueTable
        self.valueTableNumber = self.valueTable?.withObject { $0.number } ?? 0
    }

    /// The dispatcher's clock's monotonic reading now: the one reading taken when an action completes.
    @inlinable @inline(__always)
    func uptimeNanoseconds() -> UInt64 {
        systemClockEpoch == nil ? watchdog.scheduler.uptimeNanoseconds() : MonotonicClock.nanoseconds
    }

    /// Tells every plugin, in order, that `request` begins; the dispatcher calls
    /// ``notifyWillBeginWithValues(_:)`` instead when ``valueTable`` is set.
    ///
    /// Not inlinable, so never specialized for an action: the request arrives by address and is lent to each
    /// plugin in place, and the metadata of `F` and `A` arrive once as arguments. Specialized, the loop copied
    /// the request bitwise for the plugin call and looked up both metadata for every plugin, about 50
    /// instructions per plugin and stage, where a plugin's call needs only the request's address.
    @usableFromInline @inline(never)
    func notifyWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        for index in 0..<boxes.count {
            // Lent uncounted: `boxes` owns every box for the life of this list, which the dispatch holds.
            boxes.withObject(at: index) { $0.plugin.actionWillBegin(request) }
        }
    }

    /// Tells every plugin, in order, that `request` completed with `outcome`; the dispatcher calls
    /// ``notifyDidCompleteWithValues(_:outcome:)`` instead when ``valueTable`` is set. Not inlinable, as
    /// ``notifyWillBegin(_:)``.
    @usableFromInline @inline(never)
    func notifyDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        for index in 0..<boxes.count {
            boxes.withObject(at: index) { $0.plugin.actionDidComplete(request, outcome: outcome) }
        }
    }

    /// Tells every plugin that `request` completed with `outcome`: ``notifyDidComplete(_:outcome:)``, or
    /// ``notifyDidCompleteWithValues(_:outcome:)`` when ``valueTable`` is set.
    @inlinable
    func notifyDidComplete<F, A>(anyStage request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        if valueTable == nil {
            notifyDidComplete(request, outcome: outcome)
        } else {
            notifyDidCompleteWithValues(request, outcome: outcome)
        }
    }

    /// ``notifyWillBegin(_:)`` when a plugin may attach values: hands the plugins the request naming the value
    /// table, opens the request's values for the plugins that may attach them, and seals them once those have
    /// been told. Out of line, so that a dispatch without such plugins pays one comparison for them, at the call.
    @usableFromInline @inline(never)
    func notifyWillBeginWithValues<F, A>(_ request: ActionRequest<F, A>) {
        guard let valueTable else { return }
        var request = request
        request.valueTableNumber = valueTableNumber
        valueTable.withObject { $0.open(request.uniqueID) }
        for index in 0..<valueStageCount {
            boxes.withObject(at: index) { $0.plugin.actionWillBegin(request) }
        }
        valueTable.withObject { $0.seal(request.uniqueID) }
        for index in valueStageCount..<boxes.count {
            boxes.withObject(at: index) { $0.plugin.actionWillBegin(request) }
        }
    }

    /// ``notifyDidComplete(_:outcome:)`` when a plugin may attach values: hands the plugins the request naming
    /// the value table, then forgets the request's values.
    @usableFromInline @inline(never)
    func notifyDidCompleteWithValues<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        guard let valueTable else { return }
        var request = request
        request.valueTableNumber = valueTableNumber
        for index in 0..<boxes.count {
            boxes.withObject(at: index) { $0.plugin.actionDidComplete(request, outcome: outcome) }
        }
        valueTable.withObject { $0.close(request.uniqueID) }
    }
}

/// One plugin of a ``PluginList``, boxed so that the list calls it on an immutable stored existential, without
/// copying it.
@usableFromInline
final class PluginBox: Sendable {
    @usableFromInline let plugin: any ActionDispatchPlugin

    init(_ plugin: any ActionDispatchPlugin) {
        self.plugin = plugin
    }
}
