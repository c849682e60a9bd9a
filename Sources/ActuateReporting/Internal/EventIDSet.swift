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
///
/// A set sized up front (``init(expectedCount:)``) lays its tables out side by side in one block of mapped memory:
/// an insert then touches the slot it probes and the table's 16-byte header, rather than also the header of a
/// table's own array, three cache misses an id in ten million made two. A table that outgrows its room moves to
/// memory of its own.
package struct EventIDSet: Sendable {
    /// The number of tables, one per value of a fingerprint's top 16 bits.
    fileprivate static let tableCount = 1 << 16

    private var storage: EventIDTables

    /// The number of distinct fingerprints inserted.
    package private(set) var count = 0

    /// Creates an empty set.
    package init() {
        storage = EventIDTables(slotsPerTable: 0)
    }

    /// Creates an empty set with room for about `expectedCount` ids, so that inserting them copies no table while it
    /// grows (growing by 30% copies each id about three times over). More ids than that are taken all the same.
    /// - Parameter expectedCount: The ids expected; a larger count takes more memory up front, six bytes and a
    ///   quarter a slot.
    package init(expectedCount: Int) {
        let perTable = max(0, expectedCount) / Self.tableCount
        // The tables' counts spread around their mean by about its square root: room for three times that more,
        // below the 85% that makes a table grow.
        let spread = Int(Double(perTable).squareRoot())
        storage = EventIDTables(slotsPerTable: perTable == 0 ? 0 : (perTable + 3 * spread + 2) * 100 / 85 + 1)
    }

    /// Inserts an id and says whether it was new.
    /// - Parameter id: The event's id.
    /// - Returns: True the first time an id (or, rarely, another id with the same fingerprint) is inserted.
    package mutating func insert(_ id: UUID) -> Bool {
        let fingerprint = Self.fingerprint(of: id)
        var key = fingerprint & 0xFFFF_FFFF_FFFF
        if key == 0 { key = 1 }
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        let inserted = storage.insert(key, table: Int(truncatingIfNeeded: fingerprint >> 48))
        if inserted { count += 1 }
        return inserted
    }

    /// The bytes the tables take: six per slot.
    package var tableBytes: Int { storage.slotCount * 6 }

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

/// The memory of an ``EventIDSet``'s tables: a block holding every table's first room side by side, the tables that
/// outgrew it in memory of their own, and a 16-byte header per table.
///
/// `@unchecked Sendable`: it is written only through an ``EventIDSet`` that holds the one reference to it (the set
/// copies it first otherwise), so an instance that two sets or threads share is only read.
private final class EventIDTables: @unchecked Sendable {
    /// Where a table's slots are, how many, and how many are used.
    struct Header {
        /// Three 16-bit words a slot, the 48 low bits of a fingerprint, high word first; all zero marks an empty slot
        /// (low bits of 0 are stored as 1).
        var words: UnsafeMutablePointer<UInt16>
        var capacity: UInt32
        var count: UInt32
    }

    private let headers: UnsafeMutablePointer<Header>
    /// Every table's first room, `slotsPerTable` slots each, zeroed by the system page by page.
    private let block: UnsafeMutableRawPointer?
    private let blockBytes: Int
    private let slotsPerTable: Int

    init(slotsPerTable: Int) {
        self.slotsPerTable = slotsPerTable
        blockBytes = EventIDSet.tableCount * slotsPerTable * 6
        block = Self.mapZeroed(blockBytes)
        headers = .allocate(capacity: EventIDSet.tableCount)
        let words = (block ?? UnsafeMutableRawPointer(headers)).assumingMemoryBound(to: UInt16.self)
        let capacity = block == nil ? 0 : slotsPerTable
        for table in 0..<EventIDSet.tableCount {
            (headers + table).initialize(
                to: Header(words: words + table * capacity * 3, capacity: UInt32(capacity), count: 0)
            )
        }
    }

    deinit {
        for table in 0..<EventIDSet.tableCount where ownsWords(headers[table]) {
            headers[table].words.deallocate()
        }
        headers.deallocate()
        if let block { munmap(block, blockBytes) }
    }

    /// The slots of all tables.
    var slotCount: Int {
        (0..<EventIDSet.tableCount).reduce(0) { $0 + Int(headers[$1].capacity) }
    }

    /// A copy whose memory is its own.
    func copy() -> EventIDTables {
        let copy = EventIDTables(slotsPerTable: block == nil ? 0 : slotsPerTable)
        if let block, let target = copy.block { target.copyMemory(from: block, byteCount: blockBytes) }
        for table in 0..<EventIDSet.tableCount {
            let header = headers[table]
            guard ownsWords(header) else {
                copy.headers[table].count = header.count
                continue
            }
            let words = UnsafeMutablePointer<UInt16>.allocate(capacity: Int(header.capacity) * 3)
            words.initialize(from: header.words, count: Int(header.capacity) * 3)
            copy.headers[table] = Header(words: words, capacity: header.capacity, count: header.count)
        }
        return copy
    }

    /// Inserts the 48-bit `key` (never 0) into `table` and says whether it was new.
    @inline(__always)
    func insert(_ key: UInt64, table: Int) -> Bool {
        var header = headers[table]
        if (Int(header.count) + 1) * 100 > Int(header.capacity) * 85 {
            grow(table)
            header = headers[table]
        }
        let capacity = Int(header.capacity)
        let high = UInt16(truncatingIfNeeded: key >> 32)
        let middle = UInt16(truncatingIfNeeded: key >> 16)
        let low = UInt16(truncatingIfNeeded: key)
        var slot = Self.home(of: key, capacity: capacity)
        while true {
            let words = header.words + slot * 3
            let storedHigh = words[0]
            let storedMiddle = words[1]
            let storedLow = words[2]
            if storedHigh == high, storedMiddle == middle, storedLow == low { return false }
            if storedHigh | storedMiddle | storedLow == 0 {
                words[0] = high
                words[1] = middle
                words[2] = low
                headers[table].count = header.count + 1
                return true
            }
            slot += 1
            if slot == capacity { slot = 0 }
        }
    }

    /// The first slot to probe: the key scaled to the capacity (its bits are already mixed).
    @inline(__always)
    private static func home(of key: UInt64, capacity: Int) -> Int {
        Int(truncatingIfNeeded: (key << 16).multipliedFullWidth(by: UInt64(capacity)).high)
    }

    /// Moves `table` to memory of its own, 30% larger.
    private func grow(_ table: Int) {
        let old = headers[table]
        let oldCapacity = Int(old.capacity)
        let capacity = max(8, oldCapacity + oldCapacity * 3 / 10)
        let grown = UnsafeMutablePointer<UInt16>.allocate(capacity: capacity * 3)
        grown.initialize(repeating: 0, count: capacity * 3)
        for slot in 0..<oldCapacity {
            let words = old.words + slot * 3
            guard words[0] | words[1] | words[2] != 0 else { continue }
            let key = UInt64(words[0]) << 32 | UInt64(words[1]) << 16 | UInt64(words[2])
            var target = Self.home(of: key, capacity: capacity)
            while grown[target * 3] | grown[target * 3 + 1] | grown[target * 3 + 2] != 0 {
                target += 1
                if target == capacity { target = 0 }
            }
            (grown + target * 3).update(from: words, count: 3)
        }
        if ownsWords(old) { old.words.deallocate() }
        headers[table] = Header(words: grown, capacity: UInt32(capacity), count: old.count)
    }

    /// Whether the table's words were allocated for it alone, not in the block.
    private func ownsWords(_ header: Header) -> Bool {
        guard header.capacity > 0 else { return false }
        guard let block else { return true }
        let address = UnsafeMutableRawPointer(header.words)
        return address < block || address >= block + blockBytes
    }

    /// `bytes` of zeroed memory from the system, nil for none or when the system refuses.
    ///
    /// Not asked for in huge pages: an earlier version asked (`madvise(MADV_HUGEPAGE)`) and seemed to raise the peak
    /// resident set of `actuate stats` by about 100 MB, which turned out to be the benchmark's own peak recorded into
    /// its child's (see `ChildRun.resetPeakResidentSet()` in Benchmarks); no speed was measured to depend on it.
    private static func mapZeroed(_ bytes: Int) -> UnsafeMutableRawPointer? {
        guard bytes > 0 else { return nil }
        let address = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let address, address != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        return address
    }
}
