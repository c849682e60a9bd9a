/// The journal's index of live event ids: for each id, the sequence of the event that holds it.
///
/// An open-addressing table with linear probing over one array of slots, each holding a whole key and its
/// sequence, so that registering an event reads and writes one place in memory. `Dictionary` keeps keys and values
/// in separate arrays and reaches them through several calls; with 100,000 events its table outgrows the caches,
/// and its lookups were about half of the cycles of opening a store (`perf record` on
/// `ACTUATE_BENCH_PROFILE=journal-open`) for a tenth of the instructions: the time went in waiting for memory.
struct JournalIDIndex: Sendable {
    private struct Slot: Sendable {
        var high: UInt64
        var low: UInt64
        /// The event's sequence; 0, which no event has, for an empty slot.
        var sequence: UInt64
    }

    /// Mixed into every hash: random per process, so that no one can choose ids that collide. It is the same for
    /// every table of the process so that checking threads can hash keys ahead (``hash(_:seed:)``).
    static let seed = Int.random(in: .min ... .max)

    /// Whatever ``touch(hashes:)`` read, kept so that the reads are not optimized away.
    private var touched: UInt64 = 0

    /// A power of two, or zero before the first insertion.
    private var slots: [Slot] = []
    /// The number of ids held.
    private(set) var count = 0

    /// Makes room for `capacity` ids without growing.
    mutating func reserveCapacity(_ capacity: Int) {
        let needed = Self.slotCount(for: capacity)
        if needed > slots.count { resize(to: needed) }
    }

    /// The sequence of the event holding `key`, if it is indexed.
    subscript(key: JournalEventKey) -> UInt64? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var index = Self.hash(key) & mask
        while true {
            let slot = slots[index]
            if slot.sequence == 0 { return nil }
            if slot.high == key.high, slot.low == key.low { return slot.sequence }
            index = (index + 1) & mask
        }
    }

    /// Indexes `key` at `sequence` unless it is already indexed.
    ///
    /// - Parameter sequence: Not 0.
    /// - Returns: The sequence `key` already had, in which case nothing changes; `nil` once it is inserted.
    mutating func insert(_ key: JournalEventKey, sequence: UInt64) -> UInt64? {
        insert(key, hash: Self.hash(key), sequence: sequence)
    }

    /// Indexes `key`, whose ``hash(_:)`` is `hash`, at `sequence` unless it is already indexed.
    ///
    /// - Parameter sequence: Not 0.
    /// - Returns: The sequence `key` already had, in which case nothing changes; `nil` once it is inserted.
    @inline(__always)
    mutating func insert(_ key: JournalEventKey, hash: Int, sequence: UInt64) -> UInt64? {
        precondition(sequence != 0, "the journal never gives an event sequence 0")
        if (count + 1) * 4 > slots.count * 3 { resize(to: Self.slotCount(for: count + 1)) }
        let mask = slots.count - 1
        var index = hash & mask
        while true {
            let slot = slots[index]
            if slot.sequence == 0 {
                slots[index] = Slot(high: key.high, low: key.low, sequence: sequence)
                count += 1
                return nil
            }
            if slot.high == key.high, slot.low == key.low { return slot.sequence }
            index = (index + 1) & mask
        }
    }

    /// Removes `key` from the index, if it is there.
    ///
    /// The slots after it in its run move back to close the gap, so that no slot is ever marked deleted and a
    /// lookup stops at the first empty slot.
    mutating func remove(_ key: JournalEventKey) {
        guard !slots.isEmpty else { return }
        let mask = slots.count - 1
        var hole = Self.hash(key) & mask
        while true {
            let slot = slots[hole]
            if slot.sequence == 0 { return }
            if slot.high == key.high, slot.low == key.low { break }
            hole = (hole + 1) & mask
        }
        var next = hole
        while true {
            next = (next + 1) & mask
            let slot = slots[next]
            if slot.sequence == 0 { break }
            let home = Self.hash(JournalEventKey(high: slot.high, low: slot.low)) & mask
            // The slot may fill the hole unless its home lies after the hole, up to the slot itself.
            if (next &- home) & mask >= (next &- hole) & mask {
                slots[hole] = slot
                hole = next
            }
        }
        slots[hole].sequence = 0
        count -= 1
    }

    /// The number of slots that holds `capacity` ids at a load of at most three quarters.
    private static func slotCount(for capacity: Int) -> Int {
        var slots = 16
        while slots * 3 < capacity * 4 { slots *= 2 }
        return slots
    }

    /// The hash the index places `key` by, the same on every thread of the process.
    @inline(__always)
    static func hash(_ key: JournalEventKey) -> Int {
        hash(key, seed: seed)
    }

    /// The hash the index places `key` by, given ``seed`` read once by a caller hashing many keys: reading the
    /// static each time costs a call (`swift_once`, 2 % of an open's cycles when each record read it).
    @inline(__always)
    static func hash(_ key: JournalEventKey, seed: Int) -> Int {
        // The standard library's seeded SipHash, which `Dictionary` itself places keys by: a public requirement of
        // `Hashable`, underscored because few callers need to pass their own seed.
        key._rawHashValue(seed: seed)
    }

    /// Reads the slots where keys with these hashes would go, about to be inserted, before inserting any.
    ///
    /// A table of 100,000 ids is larger than the caches, so each insertion waits for its slot to come from memory;
    /// the inserting loop is too long for the processor to run ahead to the next one. This loop is short and its
    /// reads do not depend on each other, so the processor fetches the slots together and the insertions that
    /// follow find them in the cache.
    @inline(__always)
    mutating func touch(hashes: some Sequence<Int>) {
        guard !slots.isEmpty else { return }
        let mask = slots.count - 1
        var seen: UInt64 = 0
        for hash in hashes { seen |= slots[hash & mask].sequence }
        touched |= seen
    }

    private mutating func resize(to slotCount: Int) {
        let old = slots
        slots = Array(repeating: Slot(high: 0, low: 0, sequence: 0), count: slotCount)
        let mask = slotCount - 1
        for slot in old where slot.sequence != 0 {
            var index = Self.hash(JournalEventKey(high: slot.high, low: slot.low)) & mask
            while slots[index].sequence != 0 { index = (index + 1) & mask }
            slots[index] = slot
        }
    }
}
