import Synchronization

/// Hands out a dispatcher's request ids to its queues in blocks, so that dispatches on different queues write no
/// shared cache line to number their requests.
///
/// Each queue's slot (its ``RequestHeader/queueIndex`` modulo the slot count) holds the last id it handed out. When
/// that id ends a block, the slot takes the next block of ``blockSize`` ids from the dispatcher's counter, the one
/// write shared between queues: once per 64 dispatches of a queue instead of once per dispatch. Ids stay unique per
/// dispatcher and increase on each queue; across queues they follow the blocks, not the order of dispatch.
///
/// The slots are padded like `QueueShardedState`'s shards, so that no two share a cache line. Two queues whose
/// indices map to one slot share its block, each taking the next id with a compare-and-exchange.
@usableFromInline
final class RequestIDBlocks: Sendable {
    /// The ids in one block.
    @usableFromInline static var blockSize: UInt64 { 64 }
    /// The slots, a power of two.
    static var slotCount: Int { 64 }

    /// The slots, owned here and reached without counting a reference.
    @usableFromInline let slots: OwnedObjects<RequestIDSlot>
    /// `slots.count - 1`: a queue's slot is its index masked with this.
    @usableFromInline let mask: Int

    /// Creates the slots.
    init() {
        self.slots = OwnedObjects((0..<Self.slotCount).map { _ in RequestIDSlot() })
        self.mask = Self.slotCount - 1
    }

    /// The next id for a request on the queue numbered `queueIndex`, taking a new block from `counter` (the
    /// dispatcher's next unused id, a multiple of ``blockSize`` plus one) when the queue's block is used up.
    @inlinable
    func nextID(queueIndex: Int, counter: borrowing Atomic<UInt64>) -> UInt64 {
        // Lent uncounted: `slots` owns every slot for the life of this object, which the dispatcher holds.
        slots.withObject(at: queueIndex & mask) { slot in
            var last = slot.lastID.load(ordering: .relaxed)
            while true {
                // Blocks are 1...64, 65...128 and so on, so an id that is a multiple of the block size ends one; a
                // slot that has handed out nothing holds 0.
                let next =
                    last % Self.blockSize == 0
                    ? counter.wrappingAdd(Self.blockSize, ordering: .relaxed).oldValue
                    : last &+ 1
                // Acquiring and releasing on success: the dispatch's ordering against a writer of the plugin list
                // (`DispatchingThreads`); the same instruction as a relaxed one on x86-64.
                let (exchanged, original) = slot.lastID.compareExchange(
                    expected: last,
                    desired: next,
                    successOrdering: .acquiringAndReleasing,
                    failureOrdering: .relaxed
                )
                // Lost to a queue that shares the slot: try again from what it left. A block taken for a lost
                // attempt is skipped, never handed out twice.
                if exchanged { return next }
                last = original
            }
        }
    }

    /// Adds zero to every slot, acquiring and releasing: the plugin-list writer's side of the ordering in
    /// `DispatchingThreads`, for dispatches that take their ids here. Changes no id.
    func orderAfterDispatches() {
        for index in 0..<slots.count {
            slots.withObject(at: index) { _ = $0.lastID.wrappingAdd(0, ordering: .acquiringAndReleasing) }
        }
    }
}

/// One slot of ``RequestIDBlocks``: the last id handed out, padded on both sides so that no other slot's id, nor
/// anything else a dispatch writes, shares its cache line.
@usableFromInline
final class RequestIDSlot: Sendable {
    private let paddingBefore = CacheLinePadding()
    @usableFromInline let lastID = Atomic<UInt64>(0)
    private let paddingAfter = CacheLinePadding()
}
