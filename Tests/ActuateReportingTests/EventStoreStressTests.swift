import ActuateTestSupport
import ActuateTesting
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePlugins
@testable import ActuateReporting

// Stress tests for FileEventStore, written to give the Thread Sanitizer (`swift test --sanitize=thread`) races
// to find: appends from many threads while others flush, run the group-commit writer, fetch, remove, dead-letter,
// try to open the same directory, and close the store under the appenders' feet. Every event `append`
// acknowledged must be in the reopened store exactly once. Each test takes a few hundred milliseconds.

@Suite("FileEventStore under stress")
struct EventStoreStressTests {
    private static let appenders = 4
    private static let eventsPerAppender = 150

    /// A small segment size, so that segments fill, roll over and are deleted while other threads read them.
    private static func configuration(_ scheduler: TestScheduler) -> FileEventStoreConfiguration {
        FileEventStoreConfiguration(
            durability: .groupCommit(interval: .milliseconds(5)),
            segmentSize: 8 * 1024,
            maxTotalBytes: 64 << 20,
            scheduler: scheduler
        )
    }

    @Test("appends from four threads while others flush, write, fetch, remove, dead-letter and try to reopen")
    func concurrentAppendsFlushesAndRemovals() async throws {
        let directory = TemporaryDirectory()
        let scheduler = TestScheduler()
        let store = try FileEventStore(directory: directory.url, configuration: Self.configuration(scheduler))
        let total = Self.appenders * Self.eventsPerAppender
        let ledger = StoreLedger()

        let failures = await onOwnThread { () -> [String] in
            let errors = Mutex<[String]>([])
            @Sendable func attempt(_ what: String, _ body: () throws -> Void) {
                do { try body() } catch { errors.withLock { $0.append("\(what): \(error)") } }
            }
            DispatchQueue.concurrentPerform(iterations: Self.appenders + 4) { thread in
                switch thread {
                case 0..<Self.appenders:
                    for index in 0..<Self.eventsPerAppender {
                        let event = StoreTestEvents.event(at: thread * Self.eventsPerAppender + index)
                        attempt("append") {
                            try store.append(event)
                            ledger.appended(event.id)
                        }
                    }
                case Self.appenders:
                    for _ in 0..<10 { attempt("flush") { try store.flush() } }
                case Self.appenders + 1:
                    // The group-commit writer runs on this thread, whenever virtual time passes its interval.
                    for _ in 0..<40 { scheduler.advance(by: .milliseconds(5)) }
                case Self.appenders + 2:
                    for round in 0..<30 {
                        attempt("fetch and remove") {
                            let batch = try store.fetch(count: 10, maxBytes: 64 * 1024)
                            let ids = Set(batch.map(\.id))
                            if round % 10 == 9 {
                                try store.moveToDeadLetter(ids: ids, reason: "stress round \(round)")
                                ledger.deadLettered(ids)
                            } else {
                                try store.remove(ids: ids)
                                ledger.removed(ids)
                            }
                        }
                    }
                default:
                    for _ in 0..<20 {
                        do {
                            _ = try FileEventStore(
                                directory: directory.url,
                                configuration: Self.configuration(scheduler)
                            )
                            errors.withLock { $0.append("a second store opened a directory that was in use") }
                        } catch EventStoreError.lockedByAnotherProcess {
                            // Expected while the first store is open.
                        } catch {
                            errors.withLock { $0.append("second open: \(error)") }
                        }
                        attempt("count") { _ = try store.count() }
                        attempt("dead letters") { _ = try store.deadLetters() }
                    }
                }
            }
            attempt("close") { try store.close() }
            return errors.withLock { $0 }
        }

        #expect(failures.isEmpty, "\(failures)")
        let reopened = try FileEventStore(directory: directory.url, configuration: Self.configuration(scheduler))
        #expect(reopened.recoveryReport.corruptRegionsSkipped == 0)
        #expect(reopened.recoveryReport.tornTailBytesTruncated == 0)
        let remaining = try reopened.fetch(count: .max, maxBytes: .max).map(\.id)
        #expect(remaining.count == Set(remaining).count, "an event is in the store twice")
        let expected = ledger.expectedRemaining
        #expect(ledger.appendedCount == total)
        #expect(Set(remaining) == expected)
        #expect(try reopened.count() == expected.count)
        let letters = try reopened.deadLetters()
        #expect(Set(letters.map(\.event.id)) == ledger.deadLetteredIDs)
        #expect(letters.count == ledger.deadLetteredIDs.count)
        #expect(reopened.droppedEventCount == 0)
        try reopened.close()
    }

    @Test("the store is closed and reopened while four threads append: every acknowledged event stays, once")
    func reopenWhileAppending() async throws {
        let directory = TemporaryDirectory()
        let scheduler = TestScheduler()
        let rounds = 4
        let perRound = 60
        let ledger = StoreLedger()

        let failures = await onOwnThread { () -> [String] in
            var failures: [String] = []
            for round in 0..<rounds {
                let store: FileEventStore
                do {
                    store = try FileEventStore(directory: directory.url, configuration: Self.configuration(scheduler))
                } catch {
                    return failures + ["round \(round): reopening failed: \(error)"]
                }
                let errors = Mutex<[String]>([])
                DispatchQueue.concurrentPerform(iterations: Self.appenders + 2) { thread in
                    switch thread {
                    case 0..<Self.appenders:
                        for index in 0..<perRound {
                            let number = (round * Self.appenders + thread) * perRound + index
                            let event = StoreTestEvents.event(at: number)
                            do {
                                try store.append(event)
                                ledger.appended(event.id)
                            } catch EventStoreError.closed {
                                ledger.refused(event.id)
                            } catch {
                                errors.withLock { $0.append("append: \(error)") }
                            }
                        }
                    case Self.appenders:
                        for _ in 0..<3 {
                            do {
                                try store.flush()
                            } catch EventStoreError.closed {
                                break
                            } catch {
                                errors.withLock { $0.append("flush: \(error)") }
                            }
                            scheduler.advance(by: .milliseconds(5))
                        }
                    default:
                        // Closes the store somewhere in the middle of the appends.
                        do { try store.close() } catch { errors.withLock { $0.append("close: \(error)") } }
                    }
                }
                failures += errors.withLock { $0 }.map { "round \(round): \($0)" }
                scheduler.advance(by: .milliseconds(5))
            }
            return failures
        }

        #expect(failures.isEmpty, "\(failures)")
        let reopened = try FileEventStore(directory: directory.url, configuration: Self.configuration(scheduler))
        #expect(reopened.recoveryReport.corruptRegionsSkipped == 0)
        let stored = try reopened.fetch(count: .max, maxBytes: .max).map(\.id)
        #expect(stored.count == Set(stored).count, "an event is in the store twice")
        #expect(Set(stored) == ledger.expectedRemaining)
        #expect(ledger.appendedCount + ledger.refusedCount == rounds * Self.appenders * perRound)
        #expect(ledger.appendedCount > 0)
        try reopened.close()
    }
}

/// What the store acknowledged, refused, removed and dead-lettered, from every thread.
private final class StoreLedger: Sendable {
    private struct State {
        var appended: Set<UUID> = []
        var refused: Set<UUID> = []
        var removed: Set<UUID> = []
        var deadLettered: Set<UUID> = []
    }

    private let state = Mutex(State())

    func appended(_ id: UUID) { state.withLock { _ = $0.appended.insert(id) } }
    func refused(_ id: UUID) { state.withLock { _ = $0.refused.insert(id) } }
    func removed(_ ids: Set<UUID>) { state.withLock { $0.removed.formUnion(ids) } }
    func deadLettered(_ ids: Set<UUID>) { state.withLock { $0.deadLettered.formUnion(ids) } }

    var appendedCount: Int { state.withLock { $0.appended.count } }
    var refusedCount: Int { state.withLock { $0.refused.count } }
    var deadLetteredIDs: Set<UUID> { state.withLock { $0.deadLettered } }

    /// The events that must still be in the store: acknowledged, and neither removed nor dead-lettered.
    var expectedRemaining: Set<UUID> {
        state.withLock { $0.appended.subtracting($0.removed).subtracting($0.deadLettered) }
    }
}
