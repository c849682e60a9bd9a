extension JournalState {
    /// The oldest live entries whose sequence number is greater than `sequence`, for reading the store in pages
    /// that stay right while events are appended and removed between them.
    ///
    /// - Parameters:
    ///   - sequence: The sequence number of the last entry already read; 0 to start from the oldest.
    ///   - limit: The most entries to return.
    /// - Returns: Live entries, oldest first.
    func liveEntries(afterSequence sequence: UInt64, limit: Int) -> [JournalEntry] {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].sequence <= sequence { low = middle + 1 } else { high = middle }
        }
        var result: [JournalEntry] = []
        var index = low
        while result.count < limit, index < entries.count {
            if entries[index].isLive { result.append(entries[index]) }
            index += 1
        }
        return result
    }
}
