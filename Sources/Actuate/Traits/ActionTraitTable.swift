import Synchronization

/// The resolved traits of one action type, by slot: immutable once made.
@usableFromInline
final class ActionTraitTable: Sendable {
    /// The values, by trait slot; nil where the action does not have the trait. Read without counting
    /// references: ``owned`` keeps every value alive as long as this table.
    @usableFromInline let values: [UnownedReference<ActionTraitValueBox>?]
    private let owned: [ActionTraitValueBox?]

    init(resolving action: any Action.Type, reusing previous: ActionTraitTable?) {
        let resolvers = ActionTraitRegistry.all
        let kept = previous?.owned ?? []
        var owned = kept
        for resolver in resolvers.dropFirst(kept.count) {
            owned.append(resolver(action))
        }
        self.owned = owned
        self.values = owned.map { $0.map { UnownedReference($0) } }
    }
}

/// The trait table of one action type, extended when a trait made after it is first read.
///
/// A read is one atomic load (a plain load on x86 and ARM) of the newest table and one array read. Every
/// table published stays owned by ``tables`` as long as this store, which the action's metadata holds for the
/// life of the process, so the unretained table a reader loaded stays valid.
@usableFromInline
final class ActionTraitStore: Sendable {
    private let action: any Action.Type
    @usableFromInline let current: Atomic<UnownedReference<ActionTraitTable>>
    private let tables: Mutex<[ActionTraitTable]>

    init(action: any Action.Type) {
        self.action = action
        let table = ActionTraitTable(resolving: action, reusing: nil)
        self.current = Atomic(UnownedReference(table))
        self.tables = Mutex([table])
    }

    /// The value of `trait` for this action, or nil when the action does not have it.
    @inlinable @inline(__always)
    func value<Value>(of trait: ActionTrait<Value>) -> Value? {
        let found = current.load(ordering: .acquiring).withObject { table -> Found<Value> in
            guard trait.index < table.values.count else { return .unresolved }
            guard let box = table.values[trait.index] else { return .absent }
            return .value(box.withObject { castKnownType($0, to: ActionTraitValue<Value>.self).value })
        }
        switch found {
        case .value(let value): return value
        case .absent: return nil
        case .unresolved: return resolve(trait)
        }
    }

    /// Whether this action has the trait in `slot`: not generic, so that a plugin's unspecialized code calls it
    /// without looking up generic metadata.
    @inlinable @inline(__always)
    func has(slot: Int) -> Bool {
        let found = current.load(ordering: .acquiring).withObject { table -> Bool? in
            guard slot < table.values.count else { return nil }
            return table.values[slot] != nil
        }
        return found ?? resolvedHas(slot: slot)
    }

    /// Whether this action has the trait in `slot`, after resolving every trait made since the newest table.
    @usableFromInline
    func resolvedHas(slot: Int) -> Bool {
        let table = extended(toCover: slot)
        return slot < table.values.count && table.values[slot] != nil
    }

    @usableFromInline
    enum Found<Value> {
        case value(Value)
        case absent
        case unresolved
    }

    /// Resolves every trait made since the newest table, publishes the new table, and reads `trait` from it.
    @usableFromInline
    func resolve<Value>(_ trait: ActionTrait<Value>) -> Value? {
        let table = extended(toCover: trait.index)
        guard trait.index < table.values.count, let box = table.values[trait.index] else { return nil }
        return box.withObject { castKnownType($0, to: ActionTraitValue<Value>.self).value }
    }

    /// The newest table, extended first with every trait made since, when it does not cover `slot`.
    private func extended(toCover slot: Int) -> ActionTraitTable {
        tables.withLock { tables in
            let newest = tables[tables.count - 1]
            guard slot >= newest.values.count else { return newest }
            let table = ActionTraitTable(resolving: action, reusing: newest)
            tables.append(table)
            current.store(UnownedReference(table), ordering: .releasing)
            return table
        }
    }
}
