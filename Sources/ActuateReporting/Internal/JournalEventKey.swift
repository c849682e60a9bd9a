import Foundation

/// An event id as the journal's index keys it: its 16 bytes as two words, hashed with two multiplications instead
/// of the byte-wise path `UUID`'s own hashing goes through, or the SipHash rounds of `Hasher`, which made the index
/// the largest cost of opening a store after the checksums.
struct JournalEventKey: Hashable, Sendable {
    /// The id's first 8 bytes, read as a little-endian word.
    let high: UInt64
    /// The id's last 8 bytes, read as a little-endian word.
    let low: UInt64

    /// The key of an id given as its 16 bytes read as two little-endian words, as ``init(_:)`` reads them.
    init(high: UInt64, low: UInt64) {
        (self.high, self.low) = (high, low)
    }

    /// The id this key stands for, built only when an entry's id is asked for: recovery keys its index without
    /// making a `UUID` for every record (`UUID(uuid:)` took 57 instructions a record).
    var id: UUID {
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { raw in
            raw.storeBytes(of: high, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: low, toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: uuid)
    }

    init(_ id: UUID) {
        (high, low) = withUnsafeBytes(of: id.uuid) { raw in
            (
                raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            )
        }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(high)
        hasher.combine(low)
    }

    /// The hash `Dictionary` and `Set` use, in place of feeding ``hash(into:)`` to a `Hasher`: the two words,
    /// each mixed with the table's seed (random per process and per table), multiplied together twice and folded,
    /// as wyhash does. Ids are random, and without the seed no one can choose ids that collide.
    func _rawHashValue(seed: Int) -> Int {
        let seed = UInt64(truncatingIfNeeded: seed)
        let first = (high ^ seed ^ 0xA076_1D64_78BD_642F)
            .multipliedFullWidth(by: low ^ (seed >> 32 | seed << 32) ^ 0xE703_7ED1_A0B4_28DB)
        let second = (first.high ^ 0x8EBC_6AF0_9C88_C6E3).multipliedFullWidth(
            by: first.low ^ seed ^ 0x5899_65CC_7537_4CC3
        )
        return Int(truncatingIfNeeded: second.high ^ second.low)
    }
}
