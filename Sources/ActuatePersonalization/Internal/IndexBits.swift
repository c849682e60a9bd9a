/// A set of small indices (of rules, of actions) kept as bits, 64 a word, so that combining the criteria of every
/// rule takes a few word operations instead of a pass over the rules.
///
/// Operations that keep the count reuse the storage: once made, a set is changed without allocating.
struct IndexBits: Sendable, Equatable {
    private(set) var words: [UInt64]
    /// The number of indices the set can hold: it holds some of `0..<count`.
    let count: Int

    /// A set of `count` indices, all of them in it when `full`, none otherwise.
    init(count: Int, full: Bool = false) {
        self.count = count
        words = [UInt64](repeating: 0, count: (count + 63) / 64)
        if full { fill() }
    }

    /// Whether `index` is in the set.
    @inline(__always)
    func contains(_ index: Int) -> Bool {
        words[index >> 6] & (1 << UInt64(index & 63)) != 0
    }

    /// Puts `index` in the set.
    @inline(__always)
    mutating func insert(_ index: Int) {
        words[index >> 6] |= 1 << UInt64(index & 63)
    }

    /// Takes `index` out of the set.
    @inline(__always)
    mutating func remove(_ index: Int) {
        words[index >> 6] &= ~(1 << UInt64(index & 63))
    }

    /// Empties the set.
    mutating func removeAll() {
        words.withUnsafeMutableBufferPointer { words in
            for index in words.indices { words[index] = 0 }
        }
    }

    /// Puts every index in the set.
    mutating func fill() {
        let count = count
        words.withUnsafeMutableBufferPointer { words in
            for index in words.indices { words[index] = ~0 }
            if count & 63 != 0, let last = words.indices.last { words[last] = (1 << UInt64(count & 63)) - 1 }
        }
    }

    /// Makes the set equal to `other`, which has the same count.
    mutating func assign(_ other: IndexBits) {
        other.words.withUnsafeBufferPointer { source in
            words.withUnsafeMutableBufferPointer { words in
                for index in words.indices { words[index] = source[index] }
            }
        }
    }

    /// Takes out every index of `other`, which has the same count.
    mutating func subtract(_ other: IndexBits) {
        other.words.withUnsafeBufferPointer { source in
            words.withUnsafeMutableBufferPointer { words in
                for index in words.indices { words[index] &= ~source[index] }
            }
        }
    }
}

extension IndexBits: Sequence {
    /// Walks the indices in the set in increasing order, a word at a time.
    struct Iterator: IteratorProtocol {
        private let words: [UInt64]
        private var wordIndex = 0
        private var remaining: UInt64

        init(_ words: [UInt64]) {
            self.words = words
            remaining = words.first ?? 0
        }

        mutating func next() -> Int? {
            while remaining == 0 {
                wordIndex += 1
                guard wordIndex < words.count else { return nil }
                remaining = words[wordIndex]
            }
            let index = wordIndex << 6 + remaining.trailingZeroBitCount
            remaining &= remaining - 1
            return index
        }
    }

    /// The indices in the set, in increasing order.
    func makeIterator() -> Iterator {
        Iterator(words)
    }
}
