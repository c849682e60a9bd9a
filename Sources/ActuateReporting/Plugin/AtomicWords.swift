import Synchronization

/// A fixed number of machine words, each read and written atomically without a lock.
///
/// `InlineArray` would hold them inline, but it needs the Swift 6.2 runtime, which the Apple platforms Actuate
/// supports do not all have; one allocation made once is the difference.
final class AtomicWords: @unchecked Sendable {
    // Safe: the storage is allocated and initialized in init, freed in deinit, and otherwise only accessed through
    // `Atomic`.
    private let words: UnsafeMutablePointer<Atomic<UInt>>
    /// The number of words.
    let count: Int

    /// Creates `count` words, each 0.
    init(count: Int) {
        self.count = count
        words = .allocate(capacity: count)
        for index in 0..<count {
            (words + index).initialize(to: Atomic(0))
        }
    }

    deinit {
        words.deinitialize(count: count)
        words.deallocate()
    }

    /// The word at `index`, with relaxed ordering.
    func load(at index: Int) -> UInt {
        words[index].load(ordering: .relaxed)
    }

    /// Sets the word at `index`, with relaxed ordering.
    func store(_ value: UInt, at index: Int) {
        words[index].store(value, ordering: .relaxed)
    }
}
