import ActuateCore

/// A fixed-capacity buffer that keeps the newest elements: append and eviction are O(1).
///
/// Every appended element gets a sequence number; ``subscript(sequence:)`` reaches an element by it while it
/// is still held.
struct RingBuffer<Element> {
    private var storage: [Element?]
    private var nextSequence: UInt64 = 0
    private var oldestSequence: UInt64 = 0

    /// The most elements held.
    let capacity: Int

    /// Creates an empty buffer.
    /// - Parameter capacity: The most elements held; at least 1.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        self.storage = Array(repeating: nil, count: self.capacity)
    }

    /// The number of elements held.
    var count: Int { Int(nextSequence - oldestSequence) }

    /// The number of elements ever appended.
    var totalAppended: UInt64 { nextSequence }

    /// Appends `element`, evicting the oldest when full.
    ///
    /// Takes the element: a caller that makes it for this call moves it in, without copying it.
    /// - Returns: The element's sequence number.
    @discardableResult
    mutating func append(_ element: consuming Element) -> UInt64 {
        let sequence = nextSequence
        // Replaced through the array's in-place accessor: assigning the slot would copy the element into an
        // optional first and the evicted element out, two more copies of it.
        storage[slot(sequence)].replace(with: element)
        nextSequence += 1
        if nextSequence - oldestSequence > UInt64(capacity) { oldestSequence += 1 }
        return sequence
    }

    /// Appends an element, evicting the oldest when full: `overwrite` turns the evicted element into the new one
    /// in place, and returns what it read of the evicted one; `make` makes the new one when none is evicted.
    ///
    /// For elements with several references: the evicted element is never destroyed or copied as a whole in an
    /// optional slot, which goes through the generic value witnesses of `Optional` (about 120 instructions for a
    /// timeline record); `overwrite` releases what it replaces in code specialized for the element. Always
    /// inlined, so that the caller's closures are inlined too: called out of line, the specialized append and the
    /// closures it calls cost about 20 instructions more.
    /// - Returns: What `overwrite` returned, or nil when no element was evicted.
    @discardableResult @inline(__always)
    mutating func append<Evicted>(
        making make: () -> Element,
        overwriting overwrite: (inout Element) -> Evicted
    ) -> Evicted? {
        let sequence = nextSequence
        nextSequence += 1
        guard nextSequence - oldestSequence > UInt64(capacity) else {
            // Not full: the slot is empty, since only held elements occupy slots (see `removeAll`).
            storage[slot(sequence)] = make()
            return nil
        }
        // Full: the slot holds the oldest element, which is evicted.
        oldestSequence += 1
        return overwrite(&storage[slot(sequence)]!)
    }

    /// Appends `element`, evicting the oldest when full, and hands back what `read` makes of the evicted element.
    /// - Returns: What `read` returned for the element evicted, or nil when none was.
    mutating func append<Value>(
        _ element: consuming Element,
        readingEvicted read: (inout Element) -> Value?
    ) -> Value? {
        let sequence = nextSequence
        // Read in place and replaced in place: moving the evicted element out copies it, and a caller that binds
        // it copies it again.
        let evicted = storage[slot(sequence)] == nil ? nil : read(&storage[slot(sequence)]!)
        storage[slot(sequence)].replace(with: element)
        nextSequence += 1
        if nextSequence - oldestSequence > UInt64(capacity) { oldestSequence += 1 }
        return evicted
    }

    /// The sequence number of the newest held element that `matches`, looking back from the newest.
    mutating func newestSequence(where matches: (inout Element) -> Bool) -> UInt64? {
        var sequence = nextSequence
        while sequence > oldestSequence {
            sequence -= 1
            // Matched in place: binding the element (`if let`) copies it, with every reference it holds. Every held
            // element's slot holds it, so the slot is not tested for nil first (which copies it too).
            if matches(&storage[slot(sequence)]!) { return sequence }
        }
        return nil
    }

    /// Calls `change` on each held element in place, from the newest back, until it returns true.
    /// - Returns: Whether `change` returned true for an element.
    @discardableResult
    mutating func updateNewest(_ change: (inout Element) -> Bool) -> Bool {
        newestSequence(where: change) != nil
    }

    /// The element with sequence number `sequence`, or nil once it has been evicted.
    subscript(sequence sequence: UInt64) -> Element? {
        get { holds(sequence) ? storage[slot(sequence)] : nil }
        set {
            guard holds(sequence), let newValue else { return }
            storage[slot(sequence)] = newValue
        }
    }

    /// Changes the element with sequence number `sequence` in place, if it is still held.
    /// - Returns: Whether the element was still held.
    @discardableResult
    mutating func update(sequence: UInt64, _ change: (inout Element) -> Void) -> Bool {
        guard holds(sequence), storage[slot(sequence)] != nil else { return false }
        change(&storage[slot(sequence)]!)
        return true
    }

    /// The held elements, oldest first.
    var elements: [Element] {
        (oldestSequence..<nextSequence).compactMap { storage[slot($0)] }
    }

    /// Removes every element; sequence numbers keep increasing.
    mutating func removeAll() {
        storage = Array(repeating: nil, count: capacity)
        oldestSequence = nextSequence
    }

    private func slot(_ sequence: UInt64) -> Int {
        Int(sequence % UInt64(capacity))
    }

    private func holds(_ sequence: UInt64) -> Bool {
        sequence >= oldestSequence && sequence < nextSequence
    }
}

extension RingBuffer: Sendable where Element: Sendable {}

extension Optional {
    /// Replaces the value in place with `newValue`, destroying the old one.
    fileprivate mutating func replace(with newValue: consuming Wrapped) {
        self = .some(newValue)
    }
}
