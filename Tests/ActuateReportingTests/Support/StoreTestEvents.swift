import ActuateReporting
import Foundation

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

    /// The index an event was built from.
    static func index(of event: ReportEvent) -> Int? {
        event.properties["index"]?.numberValue.map { Int($0) }
    }
}
