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
    /// plugin's `actionWillBegin` sees a value attached by a plugin told after it. Attaching under a key again
    /// replaces the value.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - key: The key the readers use.
    /// - Returns: Whether the value was attached; false when the request's values are sealed.
    @discardableResult
    public func attach<Value>(_ value: Value, for key: RequestValueKey<Value>) -> Bool {
        guard let valueTable = RequestValueTable.numbered(valueTableNumber) else { return false }
        return valueTable.attach(value, for: key, to: uniqueID)
    }

    /// The value a ``PluginStage/before`` or ``PluginStage/enrichment`` plugin attached to this request under
    /// `key` (see ``attach(_:for:)``).
    ///
    /// Readable by every plugin told after the one that attached it, in
    /// ``ActionDispatchPlugin/actionWillBegin(_:)``, and by every plugin in
    /// ``ActionDispatchPlugin/actionDidComplete(_:outcome:)``. Each request has its own values; they are
    /// forgotten once every plugin has been told that the request completed, so a request a plugin keeps reads
    /// nil after that.
    ///
    /// - Parameter key: The key the value was attached under.
    /// - Returns: The value, or nil when none was attached.
    public func value<Value>(for key: RequestValueKey<Value>) -> Value? {
        RequestValueTable.numbered(valueTableNumber)?.value(for: key, of: uniqueID)
    }
}

/// The values plugins attached to the requests of one dispatcher in flight, by request ID.
///
/// A dispatcher makes its table when the first plugin that may attach values (``PluginStage/before`` or
/// ``PluginStage/enrichment``) is added; a dispatcher without one has none, and its dispatches do no work for
/// values. With one, a dispatch opens an entry before telling those plugins, removes it again once they have
/// been told if they attached nothing, and removes it after every plugin has been told the request completed:
/// a table holds only requests in flight, and needs no allocation for a request with no values once its
/// dictionary has grown.
///
/// Requests name their table by a 32-bit number that fits in padding, so that a request is no bigger and
/// copying it costs nothing more, and a plugin may keep a request longer than its dispatcher lives: every table
/// is kept in ``all`` for the life of the process. A table is small, and there is one per dispatcher that ever
/// had such a plugin.
///
/// Plugins run on the dispatching thread, but a plugin may keep a request and read it from any thread, and
/// requests of one dispatcher run on many queues, so the entries are behind a lock.
@usableFromInline
final class RequestValueTable: Sendable {
    private struct Entry {
        var sealed = false
        /// By key identity; a request has few values, so a linear search is the fastest lookup.
        var values: [(key: AnyObject, value: any Sendable)] = []
    }

    private let entries = Mutex<[UInt64: Entry]>([:])
    /// This table's number: its place in ``all`` plus one.
    let number: UInt32

    /// Every table made, kept for the life of the process, so that a request a plugin kept finds its table.
    private static let all = Mutex<[RequestValueTable]>([])

    private init(number: UInt32) {
        self.number = number
    }

    /// Makes a table, kept for the life of the process; nil once 2³² − 1 tables were made.
    static func make() -> UnownedReference<RequestValueTable>? {
        all.withLock { all -> UnownedReference<RequestValueTable>? in
            guard all.count < Int(UInt32.max) else { return nil }
            let table = RequestValueTable(number: UInt32(all.count + 1))
            all.append(table)
            // Unretained is safe: `all` keeps the table for the life of the process.
            return UnownedReference(table)
        }
    }

    /// The table numbered `number`, or nil for 0.
    static func numbered(_ number: UInt32) -> RequestValueTable? {
        guard number != 0 else { return nil }
        return all.withLock { Int(number) <= $0.count ? $0[Int(number) - 1] : nil }
    }

    /// Lets the plugins that are about to be told that request `id` begins attach values to it.
    @usableFromInline
    func open(_ id: UInt64) {
        entries.withLock { $0[id] = Entry() }
    }

    /// Refuses every later attach to request `id`; forgets it if nothing was attached.
    @usableFromInline
    func seal(_ id: UInt64) {
        entries.withLock { entries in
            guard let index = entries.index(forKey: id) else { return }
            if entries.values[index].values.isEmpty {
                entries.remove(at: index)
            } else {
                entries.values[index].sealed = true
            }
        }
    }

    /// Forgets the values of request `id`, once every plugin has been told that it completed.
    @usableFromInline
    func close(_ id: UInt64) {
        entries.withLock { entries in
            if !entries.isEmpty { entries.removeValue(forKey: id) }
        }
    }

    /// Stores `value` under `key` for request `id`, unless its values are sealed.
    func attach<Value>(_ value: Value, for key: RequestValueKey<Value>, to id: UInt64) -> Bool {
        entries.withLock { entries in
            guard let index = entries.index(forKey: id), !entries.values[index].sealed else { return false }
            if let slot = entries.values[index].values.firstIndex(where: { $0.key === key }) {
                entries.values[index].values[slot].value = value
            } else {
                entries.values[index].values.append((key, value))
            }
            return true
        }
    }

    /// The value stored under `key` for request `id`.
    func value<Value>(for key: RequestValueKey<Value>, of id: UInt64) -> Value? {
        entries.withLock { entries in
            entries[id]?.values.first { $0.key === key }.flatMap { $0.value as? Value }
        }
    }

    /// The number of requests that have an entry: open ones, and sealed ones with values. For tests.
    var entryCount: Int { entries.withLock { $0.count } }
}
