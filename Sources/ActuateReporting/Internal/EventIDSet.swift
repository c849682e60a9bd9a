import Foundation

/// The event ids seen so far, kept as 64-bit fingerprints in open-addressing tables, so that deduplicating ten
/// million events takes about 110 MB rather than the gigabyte a `Set<UUID>` would.
///
/// An id is reduced to a 64-bit fingerprint (a mix of its 128 bits). Two different ids share a fingerprint with
/// probability about n² / 2⁶⁵ over n ids: 2.7 × 10⁻⁶ for ten million, and when it happens one real event is taken
/// for a repeat and left out. That is the price of the memory bound, and far below the sampling error of any
/// figure computed from the events.
///
/// The fingerprints are spread over 256 tables by their top byte. Each table uses linear probing, grows by 30%
/// when it is 85% full, and indexes by a multiply-shift, so its size need not be a power of two: the tables stay
/// between 65% and 85% full, and growing copies one table of 256 at a time, never the whole set at once.
package struct EventIDSet: Sendable {
    private struct Table: Sendable {
        /// Fingerprints; 0 marks an empty slot (a fingerprint of 0 is stored as 1).
        var slots: [UInt64] = []
        var count = 0

        /// Inserts `fingerprint` (never 0) and says whether it was new.
        mutating func insert(_ fingerprint: UInt64) -> Bool {
            if (count + 1) * 100 > slots.count * 85 { grow() }
            let capacity = slots.count
            var index = Self.home(of: fingerprint, capacity: capacity)
            while true {
                let slot = slots[index]
                if slot == fingerprint { return false }
                if slot == 0 {
                    slots[index] = fingerprint
                    count += 1
                    return true
                }
                index += 1
                if index == capacity { index = 0 }
            }
        }

        /// The first slot to probe: the fingerprint's low bits, mixed, scaled to the capacity.
        private static func home(of fingerprint: UInt64, capacity: Int) -> Int {
            let mixed = (fingerprint << 8) | (fingerprint >> 56)
            return Int(truncatingIfNeeded: mixed.multipliedFullWidth(by: UInt64(capacity)).high)
        }

        private mutating func grow() {
            let capacity = max(64, slots.count + slots.count * 3 / 10)
            var grown = [UInt64](repeating: 0, count: capacity)
            for fingerprint in slots where fingerprint != 0 {
                var index = Self.home(of: fingerprint, capacity: capacity)
                while grown[index] != 0 {
                    index += 1
                    if index == capacity { index = 0 }
                }
                grown[index] = fingerprint
            }
            slots = grown
        }
    }

    private var tables = [Table](repeating: Table(), count: 256)

    /// The number of distinct fingerprints inserted.
    package private(set) var count = 0

    /// Creates an empty set.
    package init() {}

    /// Inserts an id and says whether it was new.
    /// - Parameter id: The event's id.
    /// - Returns: True the first time an id (or, rarely, another id with the same fingerprint) is inserted.
    package mutating func insert(_ id: UUID) -> Bool {
        let fingerprint = Self.fingerprint(of: id)
        let inserted = tables[Int(fingerprint >> 56)].insert(fingerprint)
        if inserted { count += 1 }
        return inserted
    }

    /// The bytes the tables take: eight per slot.
    package var tableBytes: Int { tables.reduce(0) { $0 + $1.slots.count * 8 } }

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
