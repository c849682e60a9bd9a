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
///
/// Whether the action has a trait, which every plugin asks on every dispatch, is one atomic load of
/// ``presence`` and a bit test, for the first ``presenceSlots`` traits made.
@usableFromInline
final class ActionTraitStore: Sendable {
    /// How many trait slots ``presence`` describes.
    @usableFromInline static var presenceSlots: Int { 58 }

    private let action: any Action.Type
    @usableFromInline let current: Atomic<UnownedReference<ActionTraitTable>>
    /// The newest table's answer to "has the trait in slot `n`" for every `n` below ``presenceSlots`` that it
    /// covers, as bit `n`, and in the top six bits how many slots it covers (at most ``presenceSlots``). One
    /// word, so that a reader never sees the bits of one table with the coverage of another.
    @usableFromInline let presence: Atomic<UInt64>
    private let tables: Mutex<[ActionTraitTable]>

    init(action: any Action.Type) {
        self.action = action
        let table = ActionTraitTable(resolving: action, reusing: nil)
        self.current = Atomic(UnownedReference(table))
        self.presence = Atomic(Self.presenceWord(of: table))
        self.tables = Mutex([table])
    }

    /// The ``presence`` word of `table`.
    private static func presenceWord(of table: ActionTraitTable) -> UInt64 {
        let covered = min(table.values.count, presenceSlots)
        var word = UInt64(covered) << UInt64(presenceSlots)
        for slot in 0..<covered where table.values[slot] != nil {
            word |= 1 << UInt64(slot)
        }
        return word
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
    /// without looking up generic metadata, and for the first ``presenceSlots`` traits one load and a bit test.
    @inlinable @inline(__always)
    func has(slot: Int) -> Bool {
        let word = presence.load(ordering: .acquiring)
        if slot < Int(truncatingIfNeeded: word &>> UInt64(Self.presenceSlots)) {
            return word & (1 &<< UInt64(truncatingIfNeeded: slot)) != 0
        }
        return tableHas(slot: slot)
    }

    /// Whether this action has the trait in `slot`, read from the newest table, which is extended first when it
    /// does not cover the slot: for slots ``presence`` does not describe, or does not yet.
    @usableFromInline
    func tableHas(slot: Int) -> Bool {
        let found = current.load(ordering: .acquiring).withObject { table -> Bool? in
            guard slot < table.values.count else { return nil }
            return table.values[slot] != nil
        }
        if let found { return found }
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
            presence.store(Self.presenceWord(of: table), ordering: .releasing)
            return table
        }
    }
}
