import ActuateTestSupport
import Foundation
import Synchronization
import Testing

@testable import ActuateReporting

@Suite("FileEventStore crashes and other processes")
struct FileEventStoreCrashTests {
    let temporary = TemporaryDirectory()

    func open() throws -> FileEventStore {
        try FileEventStore(
            directory: temporary.url,
            configuration: FileEventStoreConfiguration(durability: .synced, segmentSize: 8192)
        )
    }

    @Test("every acknowledged event survives SIGKILL of the writer, 30 times on one directory")
    func acknowledgedEventsSurviveKill() async throws {
        let seed =
            ProcessInfo.processInfo.environment["ACTUATE_CRASH_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0...UInt64.max)
        print("FileEventStore crash test seed: \(seed) (set ACTUATE_CRASH_SEED to replay)")
        var generator = SplitMix64(seed: seed)
        var nextIndex = 0
        var firstLive = 0
        var inFlightFound = 0
        for round in 0..<30 {
            let target = Int.random(in: 1...150, using: &generator)
            let lines = try await JournalWriterProcess.outputUntilKilled(
                arguments: [temporary.url.path, "synced", "\(nextIndex)", "8192"],
                killAfter: target
            ).lines
            let acknowledged = try lines.reduce(nextIndex - 1) { try max($0, #require(Int($1))) }
            try #require(acknowledged >= nextIndex + target - 1, "writer stopped early, seed \(seed)")

            let store = try open()
            let events = try store.fetch(count: .max, maxBytes: .max)
            let indices = events.compactMap(StoreTestEvents.index(of:))
            let last = try #require(indices.last)
            #expect(indices == Array(firstLive...last), "seed \(seed) round \(round)")
            #expect(last == acknowledged || last == acknowledged + 1, "seed \(seed) round \(round)")
            if last == acknowledged + 1 { inFlightFound += 1 }
            #expect(events == indices.map(StoreTestEvents.event(at:)), "seed \(seed) round \(round)")
            #expect(store.recoveryReport.corruptRegionsSkipped == 0, "seed \(seed) round \(round)")
            if round % 3 == 2 {
                // Acknowledge the older half, so later rounds also recover tombstones and deleted segments.
                let acknowledgedNow = events.prefix(events.count / 2)
                try store.remove(ids: Set(acknowledgedNow.map(\.id)))
                firstLive += acknowledgedNow.count
            }
            try store.close()
            nextIndex = last + 1
        }
        print(
            "FileEventStore crash test: 30 kills, \(nextIndex) events written, \(inFlightFound) in-flight events kept"
        )
    }

    @Test("a store open in this process refuses another process, even after a second store here was refused")
    func refusesOtherProcessWhileHeldHere() async throws {
        let store = try open()
        #expect(throws: EventStoreError.lockedByAnotherProcess(directory: temporary.url.path, ownerPID: getpid())) {
            _ = try open()
        }
        // Another path to the same directory is the same store. (The path goes through a link to the directory's
        // parent: a store directory that is itself a link is refused before the lock is tried.)
        let parent = temporary.url.deletingLastPathComponent()
        let link = parent.appending(path: "link-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: parent)
        defer { try? FileManager.default.removeItem(at: link) }
        #expect {
            _ = try FileEventStore(directory: link.appending(path: temporary.url.lastPathComponent))
        } throws: { error in
            guard case .lockedByAnotherProcess(_, let owner) = error as? EventStoreError else { return false }
            return owner == getpid()
        }
        // Neither refusal released this process's lock: another process is still refused.
        let probe = try await JournalWriterProcess.firstLineAndStatus(arguments: [temporary.url.path, "probe", "0"])
        #expect(probe.firstLine == "refused \(getpid())")
        #expect(probe.status == 0)
        try store.close()
        let after = try await JournalWriterProcess.firstLineAndStatus(arguments: [temporary.url.path, "probe", "0"])
        #expect(after.firstLine == "opened")
        #expect(after.status == 0)
    }

    @Test("reopening a store in a loop while another thread starts child processes is never refused")
    func reopenWhileSpawning() throws {
        let spawner = ChildSpawner()
        spawner.start()
        var refusals: [EventStoreError] = []
        var opens = 0
        while opens < 1_500 || spawner.spawned < 20 {
            do {
                let store = try open()
                try store.close()
            } catch let error as EventStoreError {
                refusals.append(error)
            }
            opens += 1
            if opens >= 20_000 { break }
        }
        let spawned = spawner.stop()
        print("reopen while spawning: \(opens) opens, \(spawned) child processes, \(refusals.count) refusals")
        #expect(spawned >= 20)
        #expect(refusals.count == 0, "the first refusal: \(refusals.first.map(String.init(describing:)) ?? "none")")
    }

    @Test("a store held open by another process gives lockedByAnotherProcess naming that process")
    func lockedByAnotherProcess() async throws {
        let directory = temporary.url
        let held = try await onOwnThread { () throws -> HeldStoreAttempt in
            let holder = try JournalWriterProcess(arguments: [directory.path, "hold", "0"])
            let firstLine = holder.readLine()
            let openError = Result { try FileEventStore(directory: directory) }.failure
            return HeldStoreAttempt(
                firstLine: firstLine,
                openError: openError.map(String.init(describing:)),
                isLockedByHolder: openError.map {
                    $0 as? EventStoreError
                        == .lockedByAnotherProcess(directory: directory.path, ownerPID: holder.processIdentifier)
                } ?? false,
                holderStatus: holder.finish()
            )
        }
        #expect(held.firstLine == "locked")
        #expect(held.isLockedByHolder, "opening gave \(held.openError ?? "a store")")
        #expect(held.holderStatus == 0)
        #expect(try open().count() == 0)
    }
}

/// What ``FileEventStoreCrashTests/lockedByAnotherProcess()`` saw while another process held the store.
private struct HeldStoreAttempt: Sendable {
    let firstLine: String?
    let openError: String?
    let isLockedByHolder: Bool
    let holderStatus: Int32
}

extension Result {
    /// The error, if this is a failure.
    fileprivate var failure: Failure? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}

/// Starts `/bin/true` again and again on a thread of its own, as an app that runs helper processes would.
final class ChildSpawner: Sendable {
    private let running = Atomic<Bool>(false)
    private let count = Atomic<Int>(0)
    private let finished = DispatchSemaphore(value: 0)

    /// The child processes started so far.
    var spawned: Int { count.load(ordering: .relaxed) }

    func start() {
        running.store(true, ordering: .relaxed)
        Thread.detachNewThread { [self] in
            while running.load(ordering: .relaxed) {
                let child = Process()
                child.executableURL = URL(fileURLWithPath: "/bin/true")
                if (try? child.run()) != nil {
                    child.waitUntilExit()
                    count.add(1, ordering: .relaxed)
                }
            }
            finished.signal()
        }
    }

    /// Stops spawning, waits for the thread to finish, and returns how many children it started.
    func stop() -> Int {
        running.store(false, ordering: .relaxed)
        finished.wait()
        return spawned
    }
}
