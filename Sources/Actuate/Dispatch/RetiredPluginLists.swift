/// The plugin lists a dispatcher replaced and has not released yet: each is kept until every thread that was
/// inside a dispatch call when it was replaced has left that call, or has exited (see ``DispatchingThreads``).
///
/// A state machine over snapshots of the threads' dispatch sequences (odd: inside a dispatch call), so that it is
/// tested alone; generic over the list only so that tests can retire stand-ins.
struct RetiredPluginLists<List: Sendable>: Sendable {
    private struct Entry: Sendable {
        var list: List
        /// The threads that were inside a dispatch call when the list was replaced, by cell address, with the
        /// (odd) sequence each had then.
        var waitingFor: [UInt: UInt64]
    }

    private var entries: [Entry] = []

    /// The number of lists kept.
    var count: Int { entries.count }

    /// Keeps `list`, replaced just before `threads` was read, until the threads `threads` shows inside a dispatch
    /// call have left it.
    mutating func retire(_ list: List, threads: [UInt: UInt64]) {
        entries.append(Entry(list: list, waitingFor: threads.filter { $0.value & 1 == 1 }))
    }

    /// Forgets, for each list, the threads that have left the call they were in when it was replaced (their
    /// sequence changed in `threads`) or have exited (absent from `threads`).
    /// - Returns: The lists no thread can still be reading, for the caller to release outside its lock.
    mutating func release(threads: [UInt: UInt64]) -> [List] {
        var released: [List] = []
        var kept: [Entry] = []
        for var entry in entries {
            entry.waitingFor = entry.waitingFor.filter { threads[$0.key] == $0.value }
            if entry.waitingFor.isEmpty {
                released.append(entry.list)
            } else {
                kept.append(entry)
            }
        }
        entries = kept
        return released
    }
}
