import ActuatePersonalization
import ActuateReporting
import Foundation
import Testing

/// `actuate stats SOURCE...` and `actuate export SOURCE... --ndjson OUT` over stores, collected batch files and
/// NDJSON, with repeats.
@Suite("actuate stats and export over many sources")
struct AudienceStatsTests {
    /// Two visitors' worth of content, product, purchase, campaign and action events, at whole milliseconds.
    static func events(count: Int = 40) -> [ReportEvent] {
        let banner = ContentReference.contentAction(id: 7, name: "Spring banner")
        let block = ContentReference(source: ContentSource(rawValue: "contentBlock"), id: "welcome", name: "Welcome")
        let start = 1_767_225_600.0
        var events: [ReportEvent] = []
        func add(_ type: String, _ index: Int, _ properties: [String: JSONValue], user: String? = nil) {
            let visitor = index % 2 == 0 ? "anon-a" : "anon-b"
            events.append(
                ReportEvent(
                    type: type,
                    timestamp: Date(timeIntervalSince1970: start + Double(events.count) * 0.25),
                    sessionID: "\(visitor)-s\(index / 10)",
                    anonymousID: visitor,
                    userID: user,
                    properties: properties
                )
            )
        }
        for index in 0..<count {
            add("executed", index, EventProperties.content(.executed, for: index % 3 == 0 ? block : banner))
            if index % 4 == 0 { add("target", index, EventProperties.content(.target(), for: banner)) }
            if index % 5 == 0 { add("close", index, EventProperties.content(.close(), for: block)) }
            if index % 6 == 0 {
                add("product", index, EventProperties.content(.product(productID: "p\(index % 12)"), for: banner))
                add(
                    "purchase",
                    index,
                    ["productIds": .array([.string("p\(index % 12)"), "other"])],
                    user: "user-\(index % 2)"
                )
            }
            let campaign: [String: JSONValue] = [
                "contentSource": "campaign", "actionId": "summer", "controlGroup": .bool(index % 2 == 1),
            ]
            add(index % 2 == 1 ? "control_impression" : "executed", index, campaign)
            add(
                "action_ended",
                index,
                [
                    "analyticsId": "show-product", "action": "Show Product", "feature": "Shop",
                    "outcome": index % 7 == 0 ? "failure" : "success",
                    "durationSeconds": .number(0.125 * Double(index % 9)),
                    "source": index % 3 == 0 ? "openURL" : "application",
                ]
            )
        }
        return events
    }

    static func writeStore(_ events: [ReportEvent], at path: String) throws {
        let store = try FileEventStore(
            directory: URL(fileURLWithPath: path),
            configuration: FileEventStoreConfiguration(durability: .synced)
        )
        for event in events { try store.append(event) }
        try store.close()
    }

    /// Writes events as batches of `perBatch`, one batch body per line, as a collector keeps them.
    static func writeBatches(
        _ events: [ReportEvent],
        encoding: EventBatchEncoding,
        perBatch: Int = 7,
        at path: String
    ) throws {
        var bytes: [UInt8] = []
        var start = 0
        while start < events.count {
            let batch = Array(events[start..<min(events.count, start + perBatch)])
            bytes += encoding.body(of: batch, sentAt: Date(timeIntervalSince1970: 1_767_300_000))
            bytes.append(0x0A)
            start += perBatch
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    static func report(_ result: CommandResult) throws -> StatisticsReport {
        try JSONDecoder().decode(StatisticsReport.self, from: Data(result.output.utf8))
    }

    @Test("a store, Actuate and Segment batch files of its events and copies of them give the store's figures")
    func repeatsChangeNoFigure() throws {
        let scratch = try ScratchDirectory()
        let events = Self.events()
        try Self.writeStore(events, at: scratch.path("store"))
        try Self.writeBatches(events, encoding: .actuate, at: scratch.path("actuate.json"))
        try Self.writeBatches(
            Array(events.prefix(50)),
            encoding: .segment,
            perBatch: 50,
            at: scratch.path("segment.json")
        )
        try FileManager.default.copyItem(atPath: scratch.path("actuate.json"), toPath: scratch.path("copy.json"))

        let alone = runTool(["stats", scratch.path("store"), "--json"])
        #expect(alone.status == 0)
        let all = runTool([
            "stats", scratch.path("store"), scratch.path("actuate.json"), scratch.path("segment.json"),
            scratch.path("copy.json"), "--json",
        ])
        #expect(all.status == 0, "\(all.error)")
        let expected = try Self.report(alone)
        #expect(expected.statistics.eventCount == events.count)
        #expect(expected.campaigns.count == 1)
        #expect(try Self.report(all) == expected)
        // Each format alone gives the same figures, whatever order its files come in.
        let batches = runTool(["stats", scratch.path("copy.json"), scratch.path("segment.json"), "--json"])
        #expect(try Self.report(batches) == expected)
        let text = runTool(["stats", scratch.path("actuate.json"), scratch.path("copy.json")])
        #expect(
            text.output.hasPrefix("Statistics of 2 sources: \(2 * events.count) events read, \(events.count) repeats")
        )
    }

    @Test("a Segment message whose messageId is not a UUID is still counted once")
    func foreignMessageIDs() throws {
        let scratch = try ScratchDirectory()
        let line =
            #"{"type":"track","event":"executed","messageId":"ajs-next-1f2e","anonymousId":"a","timestamp":"#
            + #""2026-01-01T10:00:00.5+01:00","properties":{"contentSource":"banner","actionId":"3"},"#
            + #""context":{"sessionId":"s"}}"#
        try Data((line + "\n" + line + "\n").utf8).write(to: URL(fileURLWithPath: scratch.path("events.ndjson")))
        let result = runTool(["stats", scratch.path("events.ndjson"), "--json"])
        #expect(result.status == 0, "\(result.error)")
        let report = try Self.report(result)
        #expect(report.statistics.eventCount == 1)
        #expect(report.statistics.contents.first?.figures.impressions == 1)
        #expect(report.statistics.contents.first?.series.first?.start == "2026-01-01T00:00:00Z")
    }

    @Test("export writes one flat row per event, each id once, and stats over the export gives the sources' figures")
    func exportRoundTrip() throws {
        let scratch = try ScratchDirectory()
        let events = Self.events()
        try Self.writeStore(events, at: scratch.path("store"))
        try Self.writeBatches(events, encoding: .segment, at: scratch.path("segment.json"))
        let export = runTool([
            "export", scratch.path("store"), scratch.path("segment.json"), "--ndjson", scratch.path("out.ndjson"),
        ])
        #expect(export.status == 0, "\(export.error)")
        #expect(export.output.contains("Exported \(events.count) events (\(events.count) repeats"))
        let lines = try String(contentsOfFile: scratch.path("out.ndjson"), encoding: .utf8)
            .split(separator: "\n")
        #expect(lines.count == events.count)
        let first = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        )
        #expect(Set(first.keys) == Set(FlatEventRow.Column.allCases.map(\.rawValue)))
        let campaignRow = try #require(
            lines.lazy.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .first { $0["event_type"] as? String == "control_impression" }
        )
        #expect(campaignRow["campaign_id"] as? String == "summer")
        #expect(campaignRow["is_control_group"] as? Bool == true)
        #expect((campaignRow["properties"] as? String)?.contains("actionId") == false)
        let fromSources = try Self.report(runTool(["stats", scratch.path("store"), "--json"]))
        let fromExport = try Self.report(runTool(["stats", scratch.path("out.ndjson"), "--json"]))
        #expect(fromExport == fromSources)
    }

    @Test("a batch file of several megabytes is read a megabyte at a time, across its chunk boundaries")
    func largeBatchFile() throws {
        let scratch = try ScratchDirectory()
        let padding = JSONValue.string(String(repeating: "é\\\"x", count: 300))
        let events = Self.events(count: 3_000).map { event in
            var event = event
            event.properties["padding"] = padding
            return event
        }
        try Self.writeBatches(events, encoding: .actuate, perBatch: 5_000, at: scratch.path("big.json"))
        let size = try #require(
            try FileManager.default.attributesOfItem(atPath: scratch.path("big.json"))[.size] as? Int
        )
        #expect(size > 3 * CollectedEventFile.chunkSize)
        let result = runTool(["stats", scratch.path("big.json"), "--json"])
        #expect(result.status == 0, "\(result.error)")
        let report = try Self.report(result)
        #expect(report.statistics.eventCount == events.count)
        let banner = try #require(
            report.statistics.contents.first { $0.content.id == "7" }
        )
        #expect(banner.figures.clicks == 750)
    }

    @Test("unreadable sources are named on stderr, the readable ones are counted, and the exit status is 1")
    func unreadableSources() throws {
        let scratch = try ScratchDirectory()
        let events = Self.events()
        try Self.writeBatches(events, encoding: .actuate, at: scratch.path("good.json"))
        try Data("not json".utf8).write(to: URL(fileURLWithPath: scratch.path("garbage.txt")))
        // A batch cut in the middle of an event: the events before the cut count, the file is named.
        let whole = try Data(contentsOf: URL(fileURLWithPath: scratch.path("good.json")))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: scratch.path("cut.json")))
        let result = runTool([
            "stats", scratch.path("good.json"), scratch.path("missing"), scratch.path("garbage.txt"),
            scratch.path("cut.json"), "--json",
        ])
        #expect(result.status == 1)
        #expect(result.error.contains("\(scratch.path("missing")): there is no such directory or file"))
        #expect(result.error.contains("\(scratch.path("garbage.txt")): at byte 0: expected a JSON object"))
        #expect(result.error.contains("\(scratch.path("cut.json")): at byte "))
        #expect(result.error.contains("3 problems reading 4 sources"))
        #expect(try Self.report(result).statistics.eventCount == events.count)
        let export = runTool(["export", scratch.path("missing"), "--ndjson", scratch.path("out.ndjson")])
        #expect(export.status == 1)
        #expect(export.error.contains("there is no such directory or file"))
    }
}
