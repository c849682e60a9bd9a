/// An immutable list of a dispatcher's plugins in the order they run, as one dispatch sees it.
///
/// The dispatcher publishes a new list with one atomic store whenever a plugin is added or removed, and
/// keeps every list it published until it is itself deinitialized, so a dispatch reads the current list
/// with one atomic load and holds it without a reference count (see `ActionDispatcher`).
@usableFromInline
final class PluginList: Sendable {
    /// The plugins, by stage and then in the order they were added.
    @usableFromInline let plugins: ContiguousArray<any ActionDispatchPlugin>
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

    /// Creates a list of `plugins` in the order they run, of which the first `valueStageCount` are in a stage
    /// that may attach values to the requests, in `valueTable`.
    init(
        _ plugins: [any ActionDispatchPlugin],
        valueStageCount: Int = 0,
        valueTable: UnownedReference<RequestValueTable>? = nil
    ) {
        self.plugins = ContiguousArray(plugins)
        self.isEmpty = plugins.isEmpty
        self.valueStageCount = valueTable == nil ? 0 : valueStageCount
        self.valueTable = valueStageCount == 0 ? nil : valueTable
        self.valueTableNumber = self.valueTable?.withObject { $0.number } ?? 0
    }

    /// Tells every plugin, in order, that `request` begins; the dispatcher calls
    /// ``notifyWillBeginWithValues(_:)`` instead when ``valueTable`` is set.
    @inlinable
    func notifyWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        // Called in place through the element's address: no copy of the existential, so no reference count.
        plugins.withUnsafeBufferPointer { plugins in
            guard let first = plugins.baseAddress else { return }
            for index in 0..<plugins.count { Self.tellWillBegin((first + index).pointee, request) }
        }
    }

    /// Tells every plugin, in order, that `request` completed with `outcome`; the dispatcher calls
    /// ``notifyDidCompleteWithValues(_:outcome:)`` instead when ``valueTable`` is set.
    @inlinable
    func notifyDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        plugins.withUnsafeBufferPointer { plugins in
            guard let first = plugins.baseAddress else { return }
            for index in 0..<plugins.count { Self.tellDidComplete((first + index).pointee, request, outcome) }
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
        for plugin in plugins[..<valueStageCount] { plugin.actionWillBegin(request) }
        valueTable.withObject { $0.seal(request.uniqueID) }
        for plugin in plugins[valueStageCount...] { plugin.actionWillBegin(request) }
    }

    /// ``notifyDidComplete(_:outcome:)`` when a plugin may attach values: hands the plugins the request naming
    /// the value table, then forgets the request's values.
    @usableFromInline @inline(never)
    func notifyDidCompleteWithValues<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        guard let valueTable else { return }
        var request = request
        request.valueTableNumber = valueTableNumber
        for plugin in plugins { plugin.actionDidComplete(request, outcome: outcome) }
        valueTable.withObject { $0.close(request.uniqueID) }
    }

    /// Calls one plugin on a borrowed existential, which is opened in place rather than copied.
    @inlinable
    static func tellWillBegin<F, A>(_ plugin: borrowing any ActionDispatchPlugin, _ request: ActionRequest<F, A>) {
        plugin.actionWillBegin(request)
    }

    /// Calls one plugin on a borrowed existential, which is opened in place rather than copied.
    @inlinable
    static func tellDidComplete<F, A>(
        _ plugin: borrowing any ActionDispatchPlugin,
        _ request: ActionRequest<F, A>,
        _ outcome: ActionPerformOutcome
    ) {
        plugin.actionDidComplete(request, outcome: outcome)
    }
}
