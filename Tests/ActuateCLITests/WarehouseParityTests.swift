import ActuatePersonalization
import ActuateReporting
import Foundation
import Testing

/// `Warehouse/run_statistics.py` on DuckDB and on ClickHouse (chDB) against `actuate stats --json`, on the same
/// events. It needs the virtual environment `.ci/run` makes, so it runs when `ACTUATE_WAREHOUSE=1` (as `.ci/run`
/// sets it), and then fails rather than skips when the engines are missing.
@Suite(
    "Warehouse SQL at parity with actuate stats",
    .enabled(if: ProcessInfo.processInfo.environment["ACTUATE_WAREHOUSE"] == "1")
)
struct WarehouseParityTests {
    /// The suite's usual events and the edge cases of each definition.
    static func events() -> [ReportEvent] {
        var events = AudienceStatsTests.events(count: 300)
        let start = 1_767_400_000.0
        func add(
            _ type: String,
            _ offset: Double,
            anonymousID: String,
            userID: String? = nil,
            session: String = "edge",
            _ properties: [String: JSONValue]
        ) {
            events.append(
                ReportEvent(
                    type: type,
                    timestamp: Date(timeIntervalSince1970: start + offset),
                    sessionID: session,
                    anonymousID: anonymousID,
                    userID: userID,
                    properties: properties
                )
            )
        }
        let shoes = ContentReference(source: ContentSource(rawValue: "contentBlock"), id: "shoes", name: "Shoes")
        // A click on one device, a purchase on another by the same user: credited through the user id.
        add(
            "product",
            0,
            anonymousID: "phone",
            userID: "u-9",
            EventProperties.content(.product(productID: "sku"), for: shoes)
        )
        add("purchase", 60, anonymousID: "laptop", userID: "u-9", ["productId": "sku"])
        // A purchase exactly at the end of the window is credited; one a millisecond later is not.
        add("product", 100, anonymousID: "late", EventProperties.content(.product(productID: "late-sku"), for: shoes))
        add("purchase", 100 + 604_800, anonymousID: "late", ["productIds": ["late-sku"]])
        add("purchase", 100.001 + 604_800, anonymousID: "late", ["productIds": ["late-sku", ""]])
        // A purchase before the click is not credited.
        add("purchase", 200, anonymousID: "early", ["productIds": ["early-sku"]])
        add("product", 201, anonymousID: "early", EventProperties.content(.product(productID: "early-sku"), for: shoes))
        // No source: the fallback source "action". No id: malformed. The app's own failures are not content.
        add("executed", 300, anonymousID: "x", ["actionId": "42"])
        add("target", 301, anonymousID: "x", ["contentSource": "banner"])
        add("error", 302, anonymousID: "x", ["contentSource": "appAction", "actionId": "save", "message": "disk"])
        // A campaign whose control group never converts: Katz's interval with the 0.5 correction.
        for index in 0..<30 {
            let visitor = "w-\(index)"
            let control = index % 3 == 0
            add(
                control ? "control_impression" : "executed",
                400 + Double(index),
                anonymousID: visitor,
                ["contentSource": "campaign", "actionId": "winter", "controlGroup": .bool(control)]
            )
            if !control && index % 2 == 0 {
                add("purchase", 500 + Double(index), anonymousID: visitor, ["productId": "coat"])
            }
        }
        // An action with no durations, and one cancelled.
        add(
            "action_ended",
            600,
            anonymousID: "x",
            ["analyticsId": "open-link", "outcome": "cancelled", "source": "continueActivity"]
        )
        add(
            "action_ended",
            601,
            anonymousID: "x",
            ["analyticsId": "open-link", "outcome": "success", "source": "intent"]
        )
        return events
    }

    @Test("every figure from DuckDB and from ClickHouse equals actuate stats --json on the same events")
    func parity() throws {
        let scratch = try ScratchDirectory()
        try AudienceStatsTests.writeStore(Self.events(), at: scratch.path("store"))
        let export = runTool(["export", scratch.path("store"), "--ndjson", scratch.path("events.ndjson")])
        #expect(export.status == 0, "\(export.error)")
        let stats = runTool(["stats", scratch.path("store"), "--json"])
        #expect(stats.status == 0, "\(stats.error)")
        let swift = try #require(try JSONSerialization.jsonObject(with: Data(stats.output.utf8)) as? [String: Any])
        let report = try AudienceStatsTests.report(stats)
        // The edge cases are in the figures compared.
        #expect(report.statistics.malformedEventCount == 1)
        #expect(report.campaigns.first { $0.campaignID == "winter" }?.controlConversions == 0)
        #expect(report.statistics[action: "open-link"]?.cancelled == 1)
        for engine in ["duckdb", "clickhouse"] {
            let sql = try WarehouseRunner.statistics(engine: engine, files: [scratch.path("events.ndjson")])
            let differences = StatisticsParity.differences(sql: sql, swift: swift)
            #expect(differences.isEmpty, "\(engine): \(differences.prefix(20).joined(separator: "\n"))")
            #expect((sql["contents"] as? [Any])?.count == report.statistics.contents.count)
            #expect((sql["campaigns"] as? [Any])?.count == 2)
        }
    }
}
