import Actuate
import ActuateReporting
import Foundation
import Synchronization

extension Benchmark {
    /// Appends events of about 300 bytes in each durability mode, beside SQLite inserting the same events.
    static let journalAppend = Benchmark(
        name: "journal.append",
        summary: "FileEventStore appends per second in each durability mode, beside SQLite in WAL mode"
    ) { context in
        let groupCount = context.size(100_000, quick: 5_000)
        let syncedCount = context.size(2_000, quick: 200)
        return [
            try appendFigure(durability: .groupCommit(), count: groupCount, synchronous: .normal, context: context),
            try appendFigure(durability: .synced, count: syncedCount, synchronous: .full, context: context),
            try concurrentSyncedFigure(perThread: syncedCount / 2, context: context),
        ]
    }

    /// Opens a store of 100,000 events, cleanly and after a torn write.
    static let journalRecover = Benchmark(
        name: "journal.recover",
        summary: "opening a FileEventStore of 100,000 events, with and without a torn tail"
    ) { context in
        let count = context.size(100_000, quick: 10_000)
        let directory = JournalBenchmarkFiles.temporaryDirectory("recover")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let store = try FileEventStore(directory: directory)
            for event in JournalBenchmarkFiles.events(count) { try store.append(event) }
            try store.close()
        }
        let segments = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix("segment-") }.sorted().map { directory.appending(path: $0) }
        let readRound: () throws -> Double = {
            try context.seconds { for segment in segments { _ = try Data(contentsOf: segment) } } * 1_000
        }
        var recovered = 0
        let cleanRound: () throws -> Double = {
            var store: FileEventStore?
            let seconds = try context.seconds { store = try FileEventStore(directory: directory) }
            // The first clean open sees every event; later ones miss the records torn rounds cut off.
            let events = try store?.count() ?? 0
            if recovered == 0 { recovered = events }
            try store?.close()
            return seconds * 1_000
        }
        var cut = 0
        let tornRound: () throws -> Double = {
            // Cut the newest segment mid-record, as a crash during a write would.
            let last = segments[segments.count - 1]
            let handle = try FileHandle(forWritingTo: last)
            try handle.truncate(atOffset: try handle.seekToEnd() - 7)
            try handle.close()
            var store: FileEventStore?
            let seconds = try context.seconds { store = try FileEventStore(directory: directory) }
            cut = store?.recoveryReport.tornTailBytesTruncated ?? 0
            try store?.close()
            return seconds * 1_000
        }
        // Read, clean open and torn open in turn each round; a torn round's recovery truncates the damage, so
        // the next round's clean open is clean again.
        let rounds = try context.interleavedRounds([readRound, cleanRound, tornRound])
        let (readFloor, clean, torn) = (rounds[0], rounds[1], rounds[2])
        guard recovered == count else { throw BenchmarkFailure("recovered \(recovered) of \(count) events") }
        guard cut > 0 else { throw BenchmarkFailure("the torn tail was not detected") }
        return [
            Figure(
                name: "journal.recover \(count) events",
                subject: Measurement(label: "FileEventStore open", unit: "ms", samples: clean),
                baseline: Measurement(label: "read the same segment files", unit: "ms", samples: readFloor),
                higherIsBetter: false,
                note: "baseline: Data(contentsOf:) on every segment file, the I/O floor of any recovery"
            ).target(.ratio, 5),
            Figure(
                name: "journal.recover \(count) events, torn tail",
                subject: Measurement(label: "FileEventStore open, torn tail", unit: "ms", samples: torn),
                baseline: Measurement(label: "FileEventStore open, clean", unit: "ms", samples: clean),
                higherIsBetter: false,
                note: "each round first cuts 7 bytes off the newest segment; recovery skips and truncates the record"
            ),
        ]
    }

    /// Synced appends from four threads into one store, against one thread, in the same rounds: appends that
    /// arrive while a sync is in flight share the next one, so four threads should append several times as fast.
    private static func concurrentSyncedFigure(perThread: Int, context: BenchmarkContext) throws -> Figure {
        let threads = 4
        let events = JournalBenchmarkFiles.events(threads * perThread)
        // The syncs the four-thread rounds led, and the appends they carried.
        let sharing = Mutex((writes: 0, appends: 0))
        func round(threads: Int) throws -> Double {
            let directory = JournalBenchmarkFiles.temporaryDirectory("synced-threads")
            defer { try? FileManager.default.removeItem(at: directory) }
            let run = try JournalBenchmarkFiles.appendSynced(
                events,
                threads: threads,
                perThread: perThread,
                in: directory
            )
            if threads > 1 {
                sharing.withLock { $0 = ($0.writes + run.syncs, $0.appends + run.syncedAppends) }
            }
            if let failure = run.firstFailure { throw BenchmarkFailure("an append failed: \(failure)") }
            guard run.stored == threads * perThread else {
                throw BenchmarkFailure("\(run.stored) of \(threads * perThread) synced appends were stored")
            }
            return run.rate
        }
        let rounds = try context.interleavedRounds([{ try round(threads: 1) }, { try round(threads: threads) }])
        let shared = sharing.withLock { $0 }
        let appendsPerSync = Double(shared.appends) / Double(max(1, shared.writes))
        return Figure(
            name: "journal.append synced, \(threads) threads over 1",
            subject: Measurement(label: "\(threads) threads, synced", unit: "events/s", samples: rounds[1]),
            baseline: Measurement(label: "1 thread, synced", unit: "events/s", samples: rounds[0]),
            higherIsBetter: true,
            note: "\(perThread) synced appends per thread into one FileEventStore; each returns once its event is on "
                + String(
                    format: "disk; %d threads shared each sync %.2f ways (%d appends in %d syncs, warm-up included)",
                    threads,
                    appendsPerSync,
                    shared.appends,
                    shared.writes
                )
        ).target(.ratio, 3)
    }

    private static func appendFigure(
        durability: DurabilityMode,
        count: Int,
        synchronous: SQLiteBaseline.Synchronous,
        context: BenchmarkContext
    ) throws -> Figure {
        let events = JournalBenchmarkFiles.events(count)
        let jsonLines = try JournalBenchmarkFiles.writeJSONLines(events)
        defer { try? FileManager.default.removeItem(at: jsonLines) }
        let mode = durability == .synced ? "synced" : "group commit 5 ms"
        var sqliteVersion = ""
        let journalRound: () throws -> Double = {
            let directory = JournalBenchmarkFiles.temporaryDirectory("append")
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try FileEventStore(
                directory: directory,
                configuration: FileEventStoreConfiguration(durability: durability)
            )
            let seconds = try context.seconds {
                for event in events { try store.append(event) }
                try store.flush()
            }
            try store.close()
            return Double(count) / seconds
        }
        let sqliteRound: () throws -> Double = {
            let result = try SQLiteBaseline.insertRate(of: jsonLines, synchronous: synchronous)
            sqliteVersion = result.version
            return result.rate
        }
        let rounds = try context.interleavedRounds([sqliteRound, journalRound])
        let (sqliteRates, rates) = (rounds[0], rounds[1])
        let averageJSON = try JournalBenchmarkFiles.averageJSONSize(events)
        return Figure(
            name: "journal.append \(mode), \(count) events of ~\(averageJSON) bytes JSON",
            subject: Measurement(label: "FileEventStore \(mode)", unit: "events/s", samples: rates),
            baseline: Measurement(
                label: "SQLite \(sqliteVersion) WAL synchronous=\(synchronous.rawValue)",
                unit: "events/s",
                samples: sqliteRates
            ),
            higherIsBetter: true,
            note: "FileEventStore: append each event (binary encoding + checksum included) then flush(); SQLite "
                + "(Python sqlite3): BEGIN; INSERT id, JSON; COMMIT per event into a table with a UNIQUE id"
        )
    }
}

/// Events and files for the journal benchmarks.
enum JournalBenchmarkFiles {
    /// What ``appendSynced(_:threads:perThread:in:)`` measured and found.
    struct SyncedAppendRun {
        /// Appends per second over all threads.
        var rate: Double
        /// The events the store held afterwards.
        var stored: Int
        /// The syncs the appends led, and the appends those syncs carried.
        var syncs: Int
        var syncedAppends: Int
        /// The first append error, if any append failed.
        var firstFailure: String?
    }

    /// Appends `perThread` of `events` from each of `threads` threads, each thread its own slice, into a new
    /// ``DurabilityMode/synced`` store in `directory`, then closes it.
    static func appendSynced(
        _ events: [ReportEvent],
        threads: Int,
        perThread: Int,
        in directory: URL
    ) throws -> SyncedAppendRun {
        let store = try FileEventStore(
            directory: directory,
            configuration: FileEventStoreConfiguration(durability: .synced)
        )
        let failures = Mutex<[String]>([])
        let rate = throughput(threads: threads, perThread: perThread) { lane in
            for event in events[(lane * perThread)..<((lane + 1) * perThread)] {
                do { try store.append(event) } catch { failures.withLock { $0.append("\(error)") } }
            }
        }
        let stored = try store.count()
        let counts = store.syncedWriteCounts
        try store.close()
        return SyncedAppendRun(
            rate: rate,
            stored: stored,
            syncs: counts.writes,
            syncedAppends: counts.appends,
            firstFailure: failures.withLock { $0.first }
        )
    }

    /// `count` distinct events of about 300 bytes of JSON each.
    static func events(_ count: Int) -> [ReportEvent] {
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        return (0..<count).map { index in
            ReportEvent(
                type: index % 5 == 0 ? "click" : "executed",
                timestamp: start.addingTimeInterval(Double(index) / 10),
                sessionID: "session-\(index / 50)",
                anonymousID: "6F9619FF-8B86-D011-B42D-00C04FC964FF",
                userID: index % 2 == 0 ? "user-42" : nil,
                properties: properties(index)
            )
        }
    }

    private static func properties(_ index: Int) -> [String: JSONValue] {
        var properties: [String: JSONValue] = [:]
        properties["actionId"] = .number(Double(1_000 + index % 97))
        properties["name"] = .string("Spring sale banner")
        properties["contentType"] = .string("html")
        properties["placeholder"] = .string("home-top")
        properties["position"] = .number(Double(index % 7))
        properties["tags"] = .array([.string("sale"), .string("spring")])
        return properties
    }

    static func temporaryDirectory(_ purpose: String) -> URL {
        FileManager.default.temporaryDirectory.appending(path: "actuate-bench-\(purpose)-\(UUID().uuidString)")
    }

    /// Writes the events as JSON, one per line, for the SQLite baseline.
    static func writeJSONLines(_ events: [ReportEvent]) throws -> URL {
        let encoder = JSONEncoder()
        var data = Data()
        for event in events {
            data.append(try encoder.encode(event))
            data.append(UInt8(ascii: "\n"))
        }
        let url = temporaryDirectory("events").appendingPathExtension("jsonl")
        try data.write(to: url)
        return url
    }

    static func averageJSONSize(_ events: [ReportEvent]) throws -> Int {
        let sample = events.prefix(100)
        let encoder = JSONEncoder()
        return try sample.map { try encoder.encode($0).count }.reduce(0, +) / max(1, sample.count)
    }
}
