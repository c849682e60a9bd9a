import Foundation
import Synchronization
import Testing

@testable import ActuateReporting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("FileEventStore concurrent synced appends")
struct SyncedAppendSharingTests {
    let temporary = TemporaryDirectory()

    /// Appends 0 to 3 from their own threads, named after them. The first append's write starts appends 1 and 2
    /// and holds until both are queued; the second write starts append 3 and holds until it is queued. Appends 1
    /// and 2 therefore share the second write, and when it is done append 3 and whichever of 1 and 2 did not
    /// write both wait for the files: the one whose event is already on disk must return without writing.
    @Test("appends queued while a sync is in flight share the next write; each returns with its event on disk")
    func appendsQueuedDuringASyncShareTheNextWrite() throws {
        let store = try FileEventStore(
            directory: temporary.url,
            configuration: FileEventStoreConfiguration(durability: .synced)
        )
        let events = StoreTestEvents.events(0..<4)
        let directory = temporary.url
        let writers = Mutex<[String]>([])
        // Foundation's thread names are not reliable on Linux, so each thread registers its own id.
        let names = Mutex<[UInt: String]>([:])
        let returned = Mutex<[String: Result<Bool, any Error>]>([:])
        let running = DispatchGroup()
        let append: @Sendable (Int) -> Void = { index in
            running.enter()
            let thread = Thread {
                let name = "append \(index)"
                names.withLock { $0[Self.currentThread()] = name }
                let outcome = Result { () throws -> Bool in
                    try store.append(events[index])
                    return try Self.segments(in: directory, contain: events[index].id)
                }
                returned.withLock { $0[name] = outcome }
                running.leave()
            }
            thread.start()
        }
        // Spins until the store holds `count` events (queued, not necessarily written): a condition, not a delay.
        let waitUntilQueued: @Sendable (Int) -> Void = { count in
            while ((try? store.count()) ?? count) < count { sched_yield() }
        }
        store.observeWrites {
            let write = writers.withLock { writers in
                writers.append(names.withLock { $0[Self.currentThread()] } ?? "unnamed")
                return writers.count
            }
            if write == 1 {
                append(1)
                waitUntilQueued(2)
                append(2)
                waitUntilQueued(3)
            } else if write == 2 {
                append(3)
                waitUntilQueued(4)
            }
        }
        // The hook holds `append`, which holds the store: replace it at the end, or the two keep each other alive.
        defer { store.observeWrites {} }
        append(0)
        // A guard against a hang only; nothing here is timed.
        try #require(running.wait(timeout: .now() + 120) == .success, "the appends did not all return")

        let order = writers.withLock { $0 }
        #expect(order.count == 3, "four synced appends, three writes: \(order)")
        #expect(order.first == "append 0")
        #expect(["append 1", "append 2"].contains(order.dropFirst().first ?? ""))
        // The append whose event the second write took returns without writing append 3's event for it.
        #expect(order.last == "append 3", "the third write was made by \(order.last ?? "nobody")")
        for index in 0..<4 {
            let outcome = try #require(returned.withLock { $0["append \(index)"] })
            #expect(try outcome.get(), "append \(index) returned before its event was in a segment file")
        }
        try store.close()
        let reopened = try FileEventStore(directory: directory)
        #expect(try reopened.fetch(count: 10, maxBytes: .max).map(\.id).sorted() == events.map(\.id).sorted())
    }

    /// The calling thread's id, unique among running threads.
    private static func currentThread() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    /// Whether a segment file in `directory` holds the bytes of `id`, read from the files themselves.
    private static func segments(in directory: URL, contain id: UUID) throws -> Bool {
        let idBytes = withUnsafeBytes(of: id.uuid) { Data($0) }
        return try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix("segment-") }
            .contains { try Data(contentsOf: directory.appending(path: $0)).range(of: idBytes) != nil }
    }
}
