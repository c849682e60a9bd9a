import ActuateReporting
import Foundation
import Testing

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
    func acknowledgedEventsSurviveKill() throws {
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
            let writer = try JournalWriterProcess(
                arguments: [temporary.url.path, "synced", "\(nextIndex)", "8192"]
            )
            var acknowledged = nextIndex - 1
            while acknowledged < nextIndex + target - 1, let line = writer.readLine() {
                acknowledged = try #require(Int(line))
            }
            writer.kill()
            for line in writer.remainingLines() { acknowledged = max(acknowledged, try #require(Int(line))) }
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

    @Test("a store held open by another process gives lockedByAnotherProcess naming that process")
    func lockedByAnotherProcess() throws {
        let holder = try JournalWriterProcess(arguments: [temporary.url.path, "hold", "0"])
        #expect(holder.readLine() == "locked")
        #expect(
            throws: EventStoreError.lockedByAnotherProcess(
                directory: temporary.url.path,
                ownerPID: holder.processIdentifier
            )
        ) {
            _ = try open()
        }
        #expect(holder.finish() == 0)
        #expect(try open().count() == 0)
    }
}
