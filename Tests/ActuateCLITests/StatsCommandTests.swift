import Actuate
import ActuatePersonalization
import ActuateReporting
import Foundation
import Testing

@Suite("actuate stats")
struct StatsCommandTests {
    /// A closed file store with impressions, clicks and a close of one banner, and two dead letters.
    private func makeStore(in scratch: ScratchDirectory) throws -> String {
        let directory = URL(fileURLWithPath: scratch.path("events"))
        let store = try FileEventStore(
            directory: directory,
            configuration: FileEventStoreConfiguration(durability: .synced)
        )
        let banner = ContentReference.contentAction(id: 7, name: "Spring banner")
        var events: [ReportEvent] = []
        for (index, event) in [ContentEvent.executed, .executed, .target(), .close(), .executed, .executed]
            .enumerated()
        {
            events.append(
                ReportEvent(
                    type: event.status.rawValue,
                    timestamp: Date(timeIntervalSince1970: 1_767_225_600 + Double(index)),
                    sessionID: index < 4 ? "s1" : "s2",
                    anonymousID: "anon",
                    properties: EventProperties.content(event, for: banner)
                )
            )
        }
        for event in events { try store.append(event) }
        try store.moveToDeadLetter(ids: [events[4].id, events[5].id], reason: "HTTP 400 after 3 tries")
        try store.close()
        return directory.path
    }

    @Test("prints the statistics table with the dead-letter count")
    func table() throws {
        let scratch = try ScratchDirectory()
        let path = try makeStore(in: scratch)
        let result = runTool(["stats", path, "--page-size", "2"])
        #expect(result.status == 0)
        #expect(result.error == "")
        #expect(result.output.hasPrefix("Statistics of the event store \(path)\n\n"))
        let row = try #require(
            result.output.split(separator: "\n").first { $0.hasPrefix("action:7 \"Spring banner\"") }
        )
        #expect(row.split(separator: " ", omittingEmptySubsequences: true).contains("50.0%"))
        #expect(result.output.contains("Events: 4, sessions: 1,"))
        #expect(result.output.contains("dead letters: 2"))
        #expect(
            result.output.hasSuffix(
                "\nDead letters: 2 events that delivery gave up on are kept in the store's "
                    + "dead-letter file and left out of the figures above.\n"
            )
        )
    }

    @Test("a content name from a server with terminal escapes is shown escaped, never written raw")
    func escapesContentNames() throws {
        let scratch = try ScratchDirectory()
        let directory = URL(fileURLWithPath: scratch.path("events"))
        let store = try FileEventStore(
            directory: directory,
            configuration: FileEventStoreConfiguration(durability: .synced)
        )
        let hostile = ContentReference.contentAction(id: 9, name: "Sale\u{1B}]52;c;cGhpc2g=\u{07}\u{1B}[2J")
        try store.append(
            ReportEvent(
                type: ContentEvent.executed.status.rawValue,
                timestamp: Date(timeIntervalSince1970: 1_767_225_600),
                sessionID: "s1",
                anonymousID: "anon",
                properties: EventProperties.content(.executed, for: hostile)
            )
        )
        try store.close()
        let result = runTool(["stats", directory.path])
        #expect(result.status == 0)
        #expect(!result.output.contains("\u{1B}"), "an escape reached the terminal")
        #expect(result.output.contains(#"Sale\u{1B}]52;c;cGhpc2g=\u{7}\u{1B}[2J"#))
    }

    @Test("--json prints the same figures as ReportingStatistics, and leaves the store as it was")
    func json() throws {
        let scratch = try ScratchDirectory()
        let path = try makeStore(in: scratch)
        let result = runTool(["stats", path, "--json"])
        #expect(result.status == 0)
        let statistics = try JSONDecoder().decode(ReportingStatistics.self, from: Data(result.output.utf8))
        #expect(statistics.deadLetterCount == 2)
        #expect(statistics.eventCount == 4)
        #expect(statistics.totals.impressions == 2)
        #expect(statistics.totals.clicks == 1)
        #expect(statistics.totals.clickThroughRate == 0.5)
        let store = try FileEventStore(directory: URL(fileURLWithPath: path))
        #expect(try store.count() == 4)
        #expect(try store.deadLetters().count == 2)
        try store.close()
    }

    @Test(
        "a missing store, a file that is not JSON and a directory that holds no store fail with status 1 and say why",
        arguments: [
            ("missing", "there is no such directory"),
            ("file.txt", "expected a JSON object"),
            ("empty", "it holds no event journal"),
        ]
    )
    func badStores(name: String, reason: String) throws {
        let scratch = try ScratchDirectory()
        try FileManager.default.createDirectory(atPath: scratch.path("empty"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: scratch.path("file.txt")))
        let result = runTool(["stats", scratch.path(name)])
        #expect(result.status == 1)
        #expect(result.output == "")
        #expect(result.error.hasPrefix("actuate: "))
        #expect(result.error.contains(scratch.path(name)))
        #expect(result.error.contains(reason))
    }

    @Test("a link named like a segment is skipped and reported, with exit status 1; the file it points to is intact")
    func linkedSegment() throws {
        let scratch = try ScratchDirectory()
        let path = try makeStore(in: scratch)
        let victim = URL(fileURLWithPath: scratch.path("victim.txt"))
        let text = Data("a line of text that must survive\n".utf8)
        try text.write(to: victim)
        // Named after a segment newer than any real one, it would be the store's newest segment, whose torn
        // tail recovery cuts off: that emptied the linked file before.
        let link = "segment-00000000000000ff.journal"
        try FileManager.default.createSymbolicLink(
            atPath: URL(fileURLWithPath: path).appendingPathComponent(link).path,
            withDestinationPath: victim.path
        )
        let result = runTool(["stats", path, "--json"])
        // Figures without a segment are not the store's figures: the exit status says so.
        #expect(result.status == 1)
        #expect(try Data(contentsOf: victim) == text)
        #expect(result.error.contains("skipped \(link) in \(path): not a regular file"))
        let statistics = try JSONDecoder().decode(ReportingStatistics.self, from: Data(result.output.utf8))
        #expect(statistics.eventCount == 4)
        #expect(statistics.deadLetterCount == 2)
    }
}
