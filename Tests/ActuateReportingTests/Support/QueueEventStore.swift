import ActuateReporting
import Foundation
import Synchronization

/// An in-memory ``EventStore`` whose fetch and remove cost O(batch), used to measure the uploader's own
/// throughput apart from `MemoryEventStore`, which re-encodes events on every fetch and scans every event on
/// every remove.
///
/// Like a journal, it measures each event's encoded size once, when the event is appended.
final class QueueEventStore: EventStore {
    private struct State {
        var events: [(event: ReportEvent, bytes: Int)] = []
        var head = 0
        var deadLetters: [DeadLetter] = []
    }

    private let state = Mutex(State())

    func append(_ event: ReportEvent) throws {
        let bytes = try JSONEncoder().encode(event).count
        state.withLock { $0.events.append((event, bytes)) }
    }

    func fetch(count: Int, maxBytes: Int) throws -> [ReportEvent] {
        state.withLock { state in
            var result: [ReportEvent] = []
            var total = 0
            var index = state.head
            while index < state.events.count, result.count < count {
                let entry = state.events[index]
                if !result.isEmpty, total + entry.bytes > maxBytes { break }
                result.append(entry.event)
                total += entry.bytes
                index += 1
            }
            return result
        }
    }

    func remove(ids: Set<ReportEvent.ID>) throws {
        state.withLock { state in
            // Acknowledged batches are the oldest events, so they usually sit at the head.
            var removed = 0
            while state.head < state.events.count, ids.contains(state.events[state.head].event.id) {
                state.head += 1
                removed += 1
            }
            if removed < ids.count {
                state.events = state.events[state.head...].filter { !ids.contains($0.event.id) }
                state.head = 0
            } else if state.head > 4096, state.head * 2 > state.events.count {
                state.events.removeFirst(state.head)
                state.head = 0
            }
        }
    }

    func moveToDeadLetter(ids: Set<ReportEvent.ID>, reason: String) throws {
        state.withLock { state in
            let live = state.events[state.head...]
            state.deadLetters += live.filter { ids.contains($0.event.id) }.map {
                DeadLetter(event: $0.event, reason: reason)
            }
            state.events = live.filter { !ids.contains($0.event.id) }
            state.head = 0
        }
    }

    func deadLetters() throws -> [DeadLetter] {
        state.withLock { $0.deadLetters }
    }

    func count() throws -> Int {
        state.withLock { $0.events.count - $0.head }
    }

    var droppedEventCount: Int { 0 }
}
