import Foundation

/// The event ids seen so far, kept as 64-bit fingerprints in open-addressing tables, six bytes a slot, so that
/// deduplicating ten million events takes about 80 MB rather than the gigabyte a `Set<UUID>` would.
///
/// An id is reduced to a 64-bit fingerprint (a mix of its 128 bits). Two different ids share a fingerprint with
/// probability about n² / 2⁶⁵ over n ids: 2.7 × 10⁻⁶ for ten million, and when it happens one real event is taken
/// for a repeat and left out. That is the price of the memory bound, and far below the sampling error of any
/// figure computed from the events.
///
/// The fingerprints are spread over 65,536 tables by their top 16 bits, so a table keeps only the other 48 bits: six
/// bytes a slot, three 16-bit words. Each table uses linear probing, grows by 30% when it is 85% full, and indexes by
/// a multiply-shift, so its size need not be a power of two: the tables stay between 65% and 85% full, and growing
/// copies one small table at a time, never the whole set at once.
package struct EventIDSet: Sendable {
    /// The number of tables, one per value of a fingerprint's top 16 bits.
    private static let tableCount = 1 << 16

    private struct Table: Sendable {
        /// Three words a slot, the 48 low bits of a fingerprint, high word first; all zero marks an empty slot (low
        /// bits of 0 are stored as 1).
        var words: [UInt16] = []
        var count = 0

        var capacity: Int { words.count / 3 }

        /// Inserts the 48-bit `key` (never 0) and says whether it was new.
        mutating func insert(_ key: UInt64) -> Bool {
            if (count + 1) * 100 > capacity * 85 { grow() }
            let capacity = self.capacity
            let high = UInt16(truncatingIfNeeded: key >> 32)
            let middle = UInt16(truncatingIfNeeded: key >> 16)
            let low = UInt16(truncatingIfNeeded: key)
            var slot = Self.home(of: key, capacity: capacity)
            while true {
                let index = slot * 3
                let storedHigh = words[index]
                let storedMiddle = words[index + 1]
                let storedLow = words[index + 2]
                if storedHigh == high, storedMiddle == middle, storedLow == low { return false }
                if storedHigh | storedMiddle | storedLow == 0 {
                    words[index] = high
                    words[index + 1] = middle
                    words[index + 2] = low
                    count += 1
                    return true
                }
                slot += 1
                if slot == capacity { slot = 0 }
            }
        }

        /// The first slot to probe: the key scaled to the capacity (its bits are already mixed).
        private static func home(of key: UInt64, capacity: Int) -> Int {
            Int(truncatingIfNeeded: (key << 16).multipliedFullWidth(by: UInt64(capacity)).high)
        }

        init() {}

        /// An empty table with room for about `count` keys without growing: the tables' counts spread around their
        /// mean by about its square root, so room for three times that more, below the 85% that makes a table grow.
        init(reserving count: Int) {
            let spread = Int(Double(count).squareRoot())
            words = [UInt16](repeating: 0, count: ((count + 3 * spread + 2) * 100 / 85 + 1) * 3)
        }

        private mutating func grow() {
            grow(to: max(8, capacity + capacity * 3 / 10))
        }

        private mutating func grow(to capacity: Int) {
            var grown = [UInt16](repeating: 0, count: capacity * 3)
            for index in stride(from: 0, to: words.count, by: 3) {
                let high = words[index]
                let middle = words[index + 1]
                let low = words[index + 2]
                guard high | middle | low != 0 else { continue }
                let key = UInt64(high) << 32 | UInt64(middle) << 16 | UInt64(low)
                var slot = Self.home(of: key, capacity: capacity)
                while grown[slot * 3] | grown[slot * 3 + 1] | grown[slot * 3 + 2] != 0 {
                    slot += 1
                    if slot == capacity { slot = 0 }
                }
                grown[slot * 3] = high
                grown[slot * 3 + 1] = middle
                grown[slot * 3 + 2] = low
            }
            words = grown
        }
    }

    private var tables = [Table](repeating: Table(), count: tableCount)

    /// The number of distinct fingerprints inserted.
    package private(set) var count = 0

    /// Creates an empty set.
    package init() {}

    /// Creates an empty set with room for about `expectedCount` ids, so that inserting them copies no table while it
    /// grows (growing by 30% copies each id about three times over). More ids than that are taken all the same.
    /// - Parameter expectedCount: The ids expected; a larger count takes more memory up front, six bytes and a
    ///   quarter a slot.
    package init(expectedCount: Int) {
        let perTable = max(0, expectedCount) / Self.tableCount
        guard perTable > 0 else { return }
        tables = (0..<Self.tableCount).map { _ in Table(reserving: perTable) }
    }

    /// Inserts an id and says whether it was new.
    /// - Parameter id: The event's id.
    /// - Returns: True the first time an id (or, rarely, another id with the same fingerprint) is inserted.
    package mutating func insert(_ id: UUID) -> Bool {
        let fingerprint = Self.fingerprint(of: id)
        var key = fingerprint & 0xFFFF_FFFF_FFFF
        if key == 0 { key = 1 }
        let inserted = tables[Int(fingerprint >> 48)].insert(key)
        if inserted { count += 1 }
        return inserted
    }

    /// The bytes the tables take: six per slot.
    package var tableBytes: Int { tables.reduce(0) { $0 + $1.words.count * 2 } }

    /// The 64-bit fingerprint of an id: its two halves mixed (a variant of MurmurHash3's finalizer), never 0.
    /// - Parameter id: The id.
    /// - Returns: The fingerprint.
    package static func fingerprint(of id: UUID) -> UInt64 {
        let (high, low) = withUnsafeBytes(of: id.uuid) { raw in
            (
                UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self)),
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
        var mixed = high ^ (low &* 0x9E37_79B9_7F4A_7C15)
        mixed ^= mixed >> 33
        mixed &*= 0xFF51_AFD7_ED55_8CCD
        mixed ^= mixed >> 33
        mixed &*= 0xC4CE_B9FE_1A85_EC53
        mixed ^= mixed >> 33
        return mixed == 0 ? 1 : mixed
    }
}
