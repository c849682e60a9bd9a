import ActuateTestSupport
import Foundation
import Testing

@testable import ActuateReporting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The soak under faults: 200,000 events through `FileEventStore`, `EventUploader` and `HTTPEventTransport` in a
/// writer process (the JournalWriter helper's `soak` mode) to the loopback collector, which fails about one request
/// in five in every way the reporting pipeline must survive, while the test kills the writer with SIGKILL and
/// starts it again several times, once while it drains.
///
/// It runs for a minute or more, so a plain `swift test` skips it: set `ACTUATE_SOAK=1` to run it, as `.ci/run`
/// does (`ACTUATE_SOAK=1 swift test --skip-build --filter SoakUnderFaultsTests`). It prints its figures on one
/// line starting with `soak:`.
@Suite("Soak under faults", .serialized)
struct SoakUnderFaultsTests {
    /// Whether the soak runs: only with `ACTUATE_SOAK=1`, because it takes minutes.
    static let isEnabled = ProcessInfo.processInfo.environment["ACTUATE_SOAK"] == "1"

    /// The faults the collector injects, each about equally often: server errors, throttling with `Retry-After`
    /// in seconds and as an HTTP date, a batch too large, a connection closed without an answer, an answer
    /// slower than the transport's 1 s timeout (after the events were recorded), malformed response bodies, and
    /// a rejection.
    static let faultKinds = [
        "500", "502", "503 Retry-After: 1", "429 Retry-After: 1", "429 Retry-After: Wed, 21 Oct 2015 07:28:00 GMT",
        "413", "drop", "slow 1.3", "malformed 200", "malformed 500", "400",
    ]

    @Test(
        "200,000 events, a failing collector and SIGKILLed writers: every acknowledged event arrives exactly once",
        .enabled(if: isEnabled, "a soak of a minute or more; set ACTUATE_SOAK=1 to run it (.ci/run does)"),
        .timeLimit(.minutes(10))
    )
    func soak() async throws {
        let started = ContinuousClock.now
        let directory = FileManager.default.temporaryDirectory.appending(path: "actuate-soak-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = Self.faultScript(length: 4000, seed: 15)
        let collector = try await TestCollector.start(script: script, slowSeconds: 1.3, maxSeconds: 900)
        let driver = SoakDriver(
            directory: directory,
            endpoint: collector.batchURL,
            eventCount: 200_000,
            killAtAcknowledged: [25_000, 55_000, 85_000, 115_000, 145_000, 175_000],
            killWhileDraining: true,
            deadline: .seconds(480)
        )
        let run: Result<SoakDriver.Figures, any Error> = await onOwnThread { Result { try driver.run() } }
        let figures: SoakDriver.Figures
        do {
            figures = try run.get()
        } catch {
            await collector.shutdown()
            throw error
        }
        let stats = try await collector.stats()
        await collector.shutdown()
        let ids = try #require(stats.ids)
        let duration = ContinuousClock.now - started

        let received = Set(ids.compactMap(SoakDriver.index(ofID:)))
        let acknowledged = figures.acknowledgedIndices
        let deadLettered = Set(figures.deadLetteredIndices)
        let losses = acknowledged.subtracting(received).subtracting(deadLettered)
        let strangers =
            ids.count
            - ids.filter { SoakDriver.index(ofID: $0).map { $0 < figures.finalEnd } ?? false }.count
        let faults = stats.faultsByKind
        let faultCount = faults.values.reduce(0, +)
        let kinds = faults.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        print(
            "soak: events \(acknowledged.count) acknowledged (\(received.count) received), requests \(stats.requests), "
                + "faults injected \(faultCount) (\(kinds)), kills \(figures.kills), duplicates \(stats.conflicts) "
                + "(redeliveries \(stats.duplicates), deduplicated by id), losses \(losses.count), "
                + "bodiless \(stats.bodiless), "
                + "dead letters \(deadLettered.count), dropped \(figures.droppedEvents), "
                + "duration \(String(format: "%.1f", Double(duration.components.seconds))) s, "
                + "peak RSS \(figures.peakRSSKilobytes / 1024) MB, max store size \(figures.maxStoreBytes / 1024) KB "
                + "(cap \(figures.maxTotalBytes / 1024) KB)"
        )

        #expect(acknowledged.count == 200_000)
        #expect(figures.kills == 7)
        #expect(losses.isEmpty, "acknowledged events that never arrived: \(losses.sorted().prefix(20))")
        #expect(strangers == 0, "the collector holds \(strangers) events no writer appended")
        #expect(stats.conflicts == 0, "events held twice with different contents")
        #expect(stats.unique == received.count)
        // Redelivery is at-least-once: only a batch in flight when a writer was killed, or whose answer was lost
        // (a timeout or a dropped connection after the collector recorded it), can arrive again.
        let interrupted = figures.kills + figures.failuresByKind.values.reduce(0, +)
        #expect(
            stats.duplicates <= interrupted * 500,
            "\(stats.duplicates) redeliveries for \(interrupted) interruptions"
        )
        // A writer killed while sending leaves a request cut short, which the collector counts as bodiless.
        #expect(stats.malformed == 0, "the uploader sent a malformed batch")
        #expect(
            stats.bodiless <= figures.kills,
            "\(stats.bodiless) requests without their body, \(figures.kills) kills"
        )
        #expect(deadLettered.allSatisfy { $0 < figures.finalEnd })
        #expect(figures.deadLetteredIndices.count <= figures.deadLetterDecisionEvents)
        #expect(figures.eventsLeftStored == 0, "events left undelivered in the store")
        #expect(figures.droppedEvents == 0, "the store dropped events over its cap")
        #expect(figures.maxStoreBytes <= figures.maxTotalBytes, "the store grew to \(figures.maxStoreBytes) bytes")
        #expect(
            figures.peakRSSKilobytes > 0 && figures.peakRSSKilobytes < 400 * 1024,
            "peak RSS \(figures.peakRSSKilobytes) kB"
        )
        let share = Double(faultCount) / Double(max(1, stats.requests))
        #expect(share > 0.1 && share < 0.3, "\(faultCount) faults in \(stats.requests) requests")
        for kind in ["500", "502", "503", "429", "413", "drop", "slow", "malformed 200", "malformed 500", "400"] {
            #expect(faults[kind, default: 0] > 0, "no \(kind) fault was injected")
        }

    }

    /// A response script in which about one answer in five is a fault, every kind taking its turn at random;
    /// early on, three rejections in a row give one batch up to the dead-letter file.
    static func faultScript(length: Int, seed: UInt64) -> [String] {
        var generator = SplitMix64(seed: seed)
        var script = (0..<length).map { _ -> String in
            guard generator.next() % 5 == 0 else { return "200" }
            return faultKinds[Int(generator.next() % UInt64(faultKinds.count))]
        }
        script.replaceSubrange(40..<43, with: ["400", "400", "400"])
        return script
    }
}

extension TestCollector.Stats {
    /// The injected faults by kind: a status other than 200 (`429`), `drop`, `slow`, or `malformed STATUS`.
    var faultsByKind: [String: Int] {
        var faults: [String: Int] = [:]
        for entry in log {
            switch entry.action {
            case "status" where entry.status == 200: continue
            case "status": faults[entry.status.map(String.init) ?? "?", default: 0] += 1
            case "malformed": faults["malformed \(entry.status.map(String.init) ?? "?")", default: 0] += 1
            default: faults[entry.action, default: 0] += 1
            }
        }
        return faults
    }
}
