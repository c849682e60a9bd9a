import Foundation
import Synchronization

/// An ``EventStore`` that keeps events in memory, for tests and for apps that accept losing unsent events.
///
/// It follows the same rules as ``FileEventStore``: fetch never removes, events leave only when removed or
/// dead-lettered, appending an id that is already stored does nothing, and when more than `maxEvents` are stored
/// the oldest are dropped and counted. ``fetch(count:maxBytes:)`` and ``remove(ids:)`` cost time in proportion to
/// the events they return or remove, not to the number stored.
public final class MemoryEventStore: EventStore {
    private struct State {
        /// Events in append order; a removed event leaves a `nil` hole until the holes before `head` are compacted.
        var slots: [ReportEvent?] = []
        /// Every slot before this index is a hole.
        var head = 0
        /// The slot of each stored event.
        var slotByID: [UUID: Int] = [:]
        var deadLetters: [DeadLetter] = []
        var dropped = 0

        var count: Int { slotByID.count }

        /// Empties the slot of a stored event and returns it.
        mutating func take(_ id: UUID) -> ReportEvent? {
            guard let slot = slotByID.removeValue(forKey: id) else { return nil }
            defer { slots[slot] = nil }
            return slots[slot]
        }

        /// Moves `head` past the holes at the front, and compacts once the front holds mostly holes, so that the
        /// cost of compaction is spread over the removals that made the holes.
        mutating func advanceHead() {
            while head < slots.count, slots[head] == nil { head += 1 }
            guard head > 1024, head * 2 > slots.count else { return }
            slots.removeFirst(head)
            head = 0
            for (index, event) in slots.enumerated() {
                if let event { slotByID[event.id] = index }
            }
        }
    }

    private let state = Mutex(State())
    /// The open reporting session's record, for a reporter made on this store after another (a relaunch).
    private let openSession = Mutex<OpenSessionRecord?>(nil)
    private let maxEvents: Int

    /// Creates an empty store.
    /// - Parameter maxEvents: The most events kept; older ones are dropped and counted beyond this.
    public init(maxEvents: Int = 100_000) {
        self.maxEvents = max(1, maxEvents)
    }

    /// Stores an event, dropping the oldest when the store is full. An id that is already stored is ignored.
    /// - Parameter event: The event to store.
    public func append(_ event: ReportEvent) throws {
        state.withLock { state in
            guard state.slotByID[event.id] == nil else { return }
            state.slotByID[event.id] = state.slots.count
            state.slots.append(event)
            while state.count > maxEvents, let oldest = state.slots[state.head] {
                _ = state.take(oldest.id)
                state.dropped += 1
                state.advanceHead()
            }
        }
    }

    /// The oldest stored events, without removing them, up to `count` events and `maxBytes` bytes as
    /// ``EventBatch`` encodes them (see ``EventStore/fetch(count:maxBytes:)``).
    /// - Parameters:
    ///   - count: The most events to return.
    ///   - maxBytes: The most encoded bytes to return; at least one event is returned if any is stored.
    /// - Returns: Events, oldest first.
    public func fetch(count: Int, maxBytes: Int) throws -> [ReportEvent] {
        let candidates = state.withLock { state -> [ReportEvent] in
            var result: [ReportEvent] = []
            result.reserveCapacity(min(max(0, count), state.count))
            var index = state.head
            while result.count < count, index < state.slots.count {
                if let event = state.slots[index] { result.append(event) }
                index += 1
            }
            return result
        }
        return EventBatchSizing.prefix(of: candidates, maxBytes: maxBytes)
    }

    /// Removes events after the collector acknowledged them; unknown ids are ignored.
    /// - Parameter ids: The events to remove.
    public func remove(ids: Set<ReportEvent.ID>) throws {
        state.withLock { state in
            for id in ids { _ = state.take(id) }
            state.advanceHead()
        }
    }

    /// Moves events to the dead-letter list, oldest first; unknown ids are ignored.
    /// - Parameters:
    ///   - ids: The events to move.
    ///   - reason: Why they were given up.
    public func moveToDeadLetter(ids: Set<ReportEvent.ID>, reason: String) throws {
        state.withLock { state in
            let moving = ids.compactMap { id in state.slotByID[id].map { (slot: $0, id: id) } }
                .sorted { $0.slot < $1.slot }
                .compactMap { state.take($0.id) }
            state.deadLetters += moving.map { DeadLetter(event: $0, reason: reason) }
            state.advanceHead()
        }
    }

    /// Every event moved to the dead-letter list, oldest first.
    /// - Returns: The dead letters.
    public func deadLetters() throws -> [DeadLetter] {
        state.withLock { $0.deadLetters }
    }

    /// The number of events stored.
    /// - Returns: The count.
    public func count() throws -> Int {
        state.withLock { $0.count }
    }

    /// The number of events dropped because the store was full.
    public var droppedEventCount: Int {
        state.withLock { $0.dropped }
    }
}

extension MemoryEventStore {
    /// The stored events, oldest first.
    func snapshot() -> [ReportEvent] {
        state.withLock { state in state.slots[state.head...].compactMap { $0 } }
    }

    /// The number of dead letters.
    func deadLetterCount() -> Int {
        state.withLock { $0.deadLetters.count }
    }
}

extension MemoryEventStore: OpenSessionKeeping {
    package func loadOpenSession() -> OpenSessionRecord? {
        openSession.withLock { $0 }
    }

    package func saveOpenSession(_ record: OpenSessionRecord?) {
        openSession.withLock { $0 = record }
    }
}
