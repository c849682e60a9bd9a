import Foundation

@testable import ActuateReporting

/// Deterministic events for the store tests, built exactly as the JournalWriter helper builds them.
enum StoreTestEvents {
    /// The event with a given index: its id, timestamp and properties all derive from the index.
    static func event(at index: Int) -> ReportEvent {
        ReportEvent(
            id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012llX", index))!,
            type: "crash-test",
            timestamp: Date(timeIntervalSince1970: 1_767_225_600 + Double(index)),
            sessionID: "session-\(index / 10)",
            anonymousID: "anonymous-1",
            userID: index % 3 == 0 ? "user-\(index)" : nil,
            properties: [
                "index": .number(Double(index)),
                "payload": .string(String(repeating: "x", count: index % 50)),
                "nested": ["odd": .bool(index % 2 == 1), "list": [1, "two", nil]],
            ]
        )
    }

    /// The events with indices in `range`.
    static func events(_ range: Range<Int>) -> [ReportEvent] {
        range.map(event(at:))
    }

    /// Appends the events with indices 0, 1 and 2 to `store`, dead-letters the first (reason "first") and then
    /// the second (reason "second"), and closes the store.
    ///
    /// - Parameter store: An open, empty store.
    /// - Returns: The three events.
    /// - Throws: The store's error.
    static func writeTwoDeadLetters(into store: FileEventStore) throws -> [ReportEvent] {
        let events = events(0..<3)
        for event in events { try store.append(event) }
        try store.moveToDeadLetter(ids: [events[0].id], reason: "first")
        try store.moveToDeadLetter(ids: [events[1].id], reason: "second")
        try store.close()
        return events
    }

    /// The index an event was built from.
    static func index(of event: ReportEvent) -> Int? {
        event.properties["index"]?.numberValue.map { Int($0) }
    }
}
