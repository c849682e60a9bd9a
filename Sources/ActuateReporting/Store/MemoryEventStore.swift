import Foundation
import Synchronization

/// An ``EventStore`` that keeps events in memory, for tests and for apps that accept losing unsent events.
///
/// It follows the same rules as ``FileEventStore``: fetch never removes, events leave only when removed or
/// dead-lettered, and when more than `maxEvents` are stored the oldest are dropped and counted.
public final class MemoryEventStore: EventStore {
    private struct State {
        var events: [ReportEvent] = []
        var deadLetters: [DeadLetter] = []
        var dropped = 0
    }

    private let state = Mutex(State())
    private let maxEvents: Int

    /// Creates an empty store.
    /// - Parameter maxEvents: The most events kept; older ones are dropped and counted beyond this.
    public init(maxEvents: Int = 100_000) {
        self.maxEvents = max(1, maxEvents)
    }

    public func append(_ event: ReportEvent) throws {
        state.withLock { state in
            state.events.append(event)
            let overflow = state.events.count - maxEvents
            if overflow > 0 {
                state.events.removeFirst(overflow)
                state.dropped += overflow
            }
        }
    }

    public func fetch(count: Int, maxBytes: Int) throws -> [ReportEvent] {
        let candidates = state.withLock { Array($0.events.prefix(max(0, count))) }
        var result: [ReportEvent] = []
        var bytes = 0
        let encoder = JSONEncoder()
        for event in candidates {
            let size = (try? encoder.encode(event).count) ?? 0
            if !result.isEmpty, bytes + size > maxBytes { break }
            result.append(event)
            bytes += size
        }
        return result
    }

    public func remove(ids: Set<ReportEvent.ID>) throws {
        state.withLock { $0.events.removeAll { ids.contains($0.id) } }
    }

    public func moveToDeadLetter(ids: Set<ReportEvent.ID>, reason: String) throws {
        state.withLock { state in
            let moving = state.events.filter { ids.contains($0.id) }
            state.events.removeAll { ids.contains($0.id) }
            state.deadLetters += moving.map { DeadLetter(event: $0, reason: reason) }
        }
    }

    public func deadLetters() throws -> [DeadLetter] {
        state.withLock { $0.deadLetters }
    }

    public func count() throws -> Int {
        state.withLock { $0.events.count }
    }

    public var droppedEventCount: Int {
        state.withLock { $0.dropped }
    }
}

extension MemoryEventStore {
    /// The stored events, oldest first, sharing the store's storage until either changes.
    func snapshot() -> [ReportEvent] {
        state.withLock { $0.events }
    }

    /// The number of dead letters.
    func deadLetterCount() -> Int {
        state.withLock { $0.deadLetters.count }
    }
}
