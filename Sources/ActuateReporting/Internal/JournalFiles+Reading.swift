extension JournalFiles {
    /// The most bytes one read of ``forEachPayload(of:_:)`` takes: nearby entries of a segment are read together
    /// up to this span, a larger entry alone.
    static let maxReadSpan = 1 << 20

    /// Calls `body` with the payload of each entry, in order, reading each run of entries that lie close together
    /// in one segment with a single read instead of one read per entry.
    ///
    /// - Parameters:
    ///   - entries: Entries in journal order, as the state lists them.
    ///   - body: Called with an entry and a reader over its payload bytes, valid only during the call (the reader
    ///     must not escape it); returns `false` to stop.
    /// - Throws: ``EventStoreError/ioFailed(path:reason:)`` when a read fails or a file ends early, or what `body`
    ///   throws.
    mutating func forEachPayload(
        of entries: [JournalEntry],
        _ body: (JournalEntry, JournalByteReader) throws -> Bool
    ) throws {
        var start = 0
        while start < entries.count {
            let first = entries[start]
            let low = first.payloadRange.lowerBound
            var end = start + 1
            while end < entries.count, entries[end].segment == first.segment,
                entries[end].offset >= entries[end - 1].payloadRange.upperBound,
                entries[end].payloadRange.upperBound - low <= Self.maxReadSpan
            {
                end += 1
            }
            let bytes = try read(segment: first.segment, range: low..<entries[end - 1].payloadRange.upperBound)
            let finished = try bytes.withUnsafeBytes { raw -> Bool in
                for entry in entries[start..<end] {
                    let range = entry.payloadRange
                    let payload = UnsafeRawBufferPointer(
                        rebasing: raw[(range.lowerBound - low)..<(range.upperBound - low)]
                    )
                    if try !body(entry, JournalByteReader(payload)) { return true }
                }
                return false
            }
            if finished { return }
            start = end
        }
    }
}
