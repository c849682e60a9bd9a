/// Numbers sessions in order of appearance, keyed by a 64-bit hash of the session id (``IDHash``) in one
/// open-addressing table of 12-byte slots, rather than a `[String: UInt32]` that keeps every id's string and hashes it
/// with SipHash on every event.
///
/// Two different session ids share a hash with probability about n² / 2⁶⁵ over n sessions (4 × 10⁻⁹ for 400,000),
/// the same bound ``StatisticsAccumulator`` accepts for product and person ids. The table grows by half when it is
/// 80% full.
struct SessionNumbers {
    /// Hashes, 0 for an empty slot (``IDHash`` is never 0).
    private var hashes: [UInt64] = []
    /// The number of the session whose hash is in the same slot.
    private var numbers: [UInt32] = []
    /// The number of sessions seen.
    private(set) var count = 0

    /// The number of `sessionID`: the next number the first time it is seen.
    mutating func number(of sessionID: String) -> UInt32 {
        number(ofHash: IDHash.of(sessionID))
    }

    /// The number of the session whose ``IDHash`` is `hash` (or of any other key given as a well-mixed 64-bit value,
    /// never 0): the next number the first time it is seen.
    mutating func number(ofHash hash: UInt64) -> UInt32 {
        if (count + 1) * 10 > hashes.count * 8 { grow() }
        let capacity = hashes.count
        var slot = Self.home(of: hash, capacity: capacity)
        while true {
            let stored = hashes[slot]
            if stored == hash { return numbers[slot] }
            if stored == 0 {
                let number = UInt32(truncatingIfNeeded: count)
                hashes[slot] = hash
                numbers[slot] = number
                count += 1
                return number
            }
            slot += 1
            if slot == capacity { slot = 0 }
        }
    }

    private static func home(of hash: UInt64, capacity: Int) -> Int {
        Int(truncatingIfNeeded: hash.multipliedFullWidth(by: UInt64(capacity)).high)
    }

    private mutating func grow() {
        let capacity = max(1024, hashes.count + hashes.count / 2)
        var grownHashes = [UInt64](repeating: 0, count: capacity)
        var grownNumbers = [UInt32](repeating: 0, count: capacity)
        for (hash, number) in zip(hashes, numbers) where hash != 0 {
            var slot = Self.home(of: hash, capacity: capacity)
            while grownHashes[slot] != 0 {
                slot += 1
                if slot == capacity { slot = 0 }
            }
            grownHashes[slot] = hash
            grownNumbers[slot] = number
        }
        hashes = grownHashes
        numbers = grownNumbers
    }
}
