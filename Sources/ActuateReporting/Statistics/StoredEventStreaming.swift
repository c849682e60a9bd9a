/// A store that statistics read in one streaming pass, holding at most one page of its events at a time.
///
/// ``EventStore/fetch(count:maxBytes:)`` has no offset, so reading a whole store through it would hold every
/// event at once; the stores of this module offer this instead. Other stores are read whole.
protocol StoredEventStreaming: EventStore {
    /// Calls `body` with every stored event, oldest first, reading `pageSize` events at a time.
    func forEachStoredEvent(pageSize: Int, _ body: (ReportEvent) throws -> Void) throws

    /// The number of dead letters, without reading them.
    func deadLetterCount() throws -> Int
}

extension FileEventStore: StoredEventStreaming {
    func forEachStoredEvent(pageSize: Int, _ body: (ReportEvent) throws -> Void) throws {
        var cursor: UInt64 = 0
        while true {
            let page = try readPage(afterSequence: cursor, count: pageSize)
            for event in page.events { try body(event) }
            guard let next = page.next else { return }
            cursor = next
        }
    }

    func deadLetterCount() throws -> Int {
        try storedDeadLetterCount()
    }
}

extension MemoryEventStore: StoredEventStreaming {
    /// The events are in memory already: one pass over a snapshot that shares their storage.
    func forEachStoredEvent(pageSize: Int, _ body: (ReportEvent) throws -> Void) throws {
        for event in snapshot() { try body(event) }
    }
}
