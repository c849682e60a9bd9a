import Synchronization

extension ActionRequest {
    /// Attaches `value` to this request under `key`, for the plugins that run after this one to read with
    /// ``value(for:)``.
    ///
    /// Values may be attached only while the dispatcher tells the ``PluginStage/before`` and
    /// ``PluginStage/enrichment`` stages that the request begins: from those plugins'
    /// ``ActionDispatchPlugin/actionWillBegin(_:)``. Once the last of them has returned, the request's values
    /// are sealed: an attach from a later stage, from ``ActionDispatchPlugin/actionDidComplete(_:outcome:)`` or
    /// from a request a plugin kept is refused, so a plugin never sees a value change under it, and no
    /// plugin sees a value attached by one that runs after it. Attaching under a key again replaces the value.
    ///
    /// The first attach of a request allocates its value storage; a dispatch whose plugins attach nothing
    /// allocates nothing.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - key: The key the readers use.
    /// - Returns: Whether the value was attached; false when the values are sealed.
    @discardableResult
    public func attach<Value>(_ value: Value, for key: RequestValueKey<Value>) -> Bool {
        guard let valueOwner else { return false }
        return valueOwner.attachValue(value, for: key)
    }

    /// The value a ``PluginStage/before`` or ``PluginStage/enrichment`` plugin attached to this request under
    /// `key` (see ``attach(_:for:)``).
    ///
    /// Readable in both callbacks of every plugin that runs after the one that attached it, and from any
    /// copy of the request a plugin keeps; each request has its own values.
    ///
    /// - Parameter key: The key the value was attached under.
    /// - Returns: The value, or nil when none was attached.
    public func value<Value>(for key: RequestValueKey<Value>) -> Value? {
        valueOwner?.attachedValue(for: key)
    }
}

/// The values attached to one request (see ``ActionRequest/attach(_:for:)``), made on the first attach.
///
/// Plugins run on the dispatching thread, but a plugin may keep a request and read it, or try to attach to it,
/// from any thread, so the values are behind a lock. The lock is taken only by plugins that use values.
@usableFromInline
final class RequestValueStore: Sendable {
    private struct State {
        var sealed: Bool
        /// By key identity; a request has few values, so a linear search is the fastest lookup.
        var entries: [(key: AnyObject, value: any Sendable)] = []
    }

    private let state: Mutex<State>

    /// The store of every request sealed before anything was attached: shared, so that sealing allocates
    /// nothing.
    static let sealedEmpty = RequestValueStore(sealed: true)

    init(sealed: Bool) {
        state = Mutex(State(sealed: sealed))
    }

    /// Stores `value` under `key` unless the store is sealed.
    func attach<Value>(_ value: Value, for key: RequestValueKey<Value>) -> Bool {
        state.withLock { state in
            guard !state.sealed else { return false }
            if let index = state.entries.firstIndex(where: { $0.key === key }) {
                state.entries[index].value = value
            } else {
                state.entries.append((key, value))
            }
            return true
        }
    }

    /// The value stored under `key`.
    func value<Value>(for key: RequestValueKey<Value>) -> Value? {
        state.withLock { state in
            state.entries.first { $0.key === key }.flatMap { $0.value as? Value }
        }
    }

    /// Refuses every later attach.
    func seal() {
        state.withLock { $0.sealed = true }
    }
}

extension DispatchOperation {
    /// Attaches a value to this operation's request, making its store on the first attach.
    func attachValue<Value>(_ value: Value, for key: RequestValueKey<Value>) -> Bool {
        guard !isCompleted else { return false }
        let store = values.load() ?? values.storeIfNil(RequestValueStore(sealed: false))
        return store.attach(value, for: key)
    }

    /// The value attached to this operation's request under `key`.
    func attachedValue<Value>(for key: RequestValueKey<Value>) -> Value? {
        values.load()?.value(for: key)
    }

    /// Refuses every later attach: called once the ``PluginStage/before`` and ``PluginStage/enrichment``
    /// plugins have heard that the request begins. Allocates nothing when nothing was attached.
    @usableFromInline
    func sealValues() {
        let store = values.load() ?? values.storeIfNil(RequestValueStore.sealedEmpty)
        if store !== RequestValueStore.sealedEmpty { store.seal() }
    }
}
