import ActuateTestSupport
import ActuateTesting
import Foundation
import Testing

@testable import ActuateReporting

/// How long after its append an acknowledged event can still be lost in group-commit mode.
@Suite("Group commit loss window")
struct GroupCommitLossWindowTests {
    let temporary = TemporaryDirectory()

    /// The events a crash right now would keep: the store's files copied, as a crash would leave them, and opened.
    func durableIndices(of directory: URL, copy: String) throws -> [Int] {
        let crashed = temporary.appending(copy)
        try TemporaryDirectory.copyFiles(of: directory, to: crashed)
        let store = try FileEventStore(directory: crashed)
        return try store.fetch(count: 1_000, maxBytes: .max).compactMap(StoreTestEvents.index(of:))
    }

    @Test("on the injected clock, each event is written within the interval from its own append, not from a tick")
    func windowMeasuredFromTheAppend() throws {
        let scheduler = TestScheduler()
        let directory = temporary.appending("store")
        let store = try FileEventStore(
            directory: directory,
            configuration: FileEventStoreConfiguration(durability: .groupCommit(), scheduler: scheduler)
        )
        try store.append(StoreTestEvents.event(at: 0))
        scheduler.advance(by: .milliseconds(3))
        try store.append(StoreTestEvents.event(at: 1))
        scheduler.advance(by: .microseconds(1_999))
        #expect(try durableIndices(of: directory, copy: "a").isEmpty)
        scheduler.advance(by: .microseconds(1))  // 5 ms after the first append: both are written together
        #expect(try durableIndices(of: directory, copy: "b") == [0, 1])

        scheduler.advance(by: .milliseconds(1))
        try store.append(StoreTestEvents.event(at: 2))  // the first append after a write starts a new interval
        scheduler.advance(by: .microseconds(4_999))
        #expect(try durableIndices(of: directory, copy: "c") == [0, 1])
        scheduler.advance(by: .microseconds(1))
        #expect(try durableIndices(of: directory, copy: "d") == [0, 1, 2])
        #expect(scheduler.pendingCount == 0)
    }

    /// Reads `INDEX NANOSECONDS` from the writer.
    static func parse(_ line: String) throws -> (Int, Int64) {
        let fields = line.split(separator: " ")
        let index = try #require(fields.first.flatMap { Int($0) })
        let time = try #require(fields.last.flatMap { Int64($0) })
        return (index, time)
    }

    /// Kills a group-commit writer at random moments and measures, for every acknowledged event the crash lost,
    /// how long before the kill it was appended. The figure is printed, never asserted; set
    /// `ACTUATE_LOSS_ROUNDS` for more kills (the README's figure comes from 40).
    @Test("after SIGKILL only the newest acknowledged events are lost; prints the oldest loss's age")
    func measuredWindowAfterKill() async throws {
        let rounds = Int(ProcessInfo.processInfo.environment["ACTUATE_LOSS_ROUNDS"] ?? "") ?? 8
        var generator = SplitMix64(seed: UInt64.random(in: 0...UInt64.max))
        var ages: [Double] = []
        for round in 0..<rounds {
            let directory = temporary.appending("round-\(round)")
            let target = Int.random(in: 200...3_000, using: &generator)
            let output = try await JournalWriterProcess.outputUntilKilled(
                arguments: [directory.path, "group-timed", "0"],
                killAfter: target
            )
            let killedAt = output.killedAt
            var appendTimes: [Int: Int64] = [:]
            for line in output.lines {
                let (index, time) = try Self.parse(line)
                appendTimes[index] = time
            }
            let store = try FileEventStore(directory: directory)
            let kept = try store.fetch(count: .max, maxBytes: .max).compactMap(StoreTestEvents.index(of:))
            #expect(kept == Array(0..<kept.count), "round \(round): the kept events are a prefix")
            let lost = appendTimes.keys.filter { $0 >= kept.count }
            if let oldest = lost.min(), let appended = appendTimes[oldest] {
                ages.append(Double(killedAt - appended) / 1e6)
            }
        }
        let sorted = ages.sorted()
        print(
            "group commit loss window: \(rounds) kills, \(ages.count) with lost acknowledged events; "
                + "oldest lost event appended \(String(format: "%.2f", sorted.last ?? 0)) ms before the kill at most, "
                + "median \(String(format: "%.2f", sorted.isEmpty ? 0 : sorted[sorted.count / 2])) ms"
        )
    }
}
