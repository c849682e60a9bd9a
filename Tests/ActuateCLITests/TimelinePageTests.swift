import ActuatePersonalization
import Foundation
import Testing

@testable import ActuateCLI

@Suite("actuate dump --html")
struct TimelinePageTests {
    private func page(_ fixture: String = "report-v1.json") throws -> String {
        let scratch = try ScratchDirectory()
        let output = scratch.path("timeline.html")
        let result = runTool(["dump", Fixtures.path(fixture), "--html", output])
        #expect(result.status == 0)
        #expect(result.output == "Wrote the timeline page (10 actions) to \(output)\n" || fixture != "report-v1.json")
        return try String(contentsOfFile: output, encoding: .utf8)
    }

    @Test("the page is self-contained: no external scripts, styles, images or fonts")
    func selfContained() throws {
        let html = try page()
        #expect(html.hasPrefix("<!doctype html>"))
        for reference in ["src=", "href=", "@import", "url(", "http://", "https://"] {
            #expect(!html.contains(reference), "the page refers to \(reference)")
        }
        #expect(html.contains("<script type=\"application/json\" id=\"timeline-data\">"))
        #expect(html.contains("--failure: \(TimelinePage.failureColor)"))
    }

    @Test("the embedded data has a bar per action with its lane, row, status and details")
    func embeddedData() throws {
        let html = try page()
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"timeline-data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let json = Data(html[start.upperBound..<end.lowerBound].utf8)
        let data = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let lanes = try #require(data["lanes"] as? [[String: Any]])
        #expect(
            lanes.map { "\($0["session"]!)/\($0["queue"]!)" } == [
                "main/com.apple.main-thread", "main/shop-demo.recommendations", "background/shop-demo.sync",
            ]
        )
        let bars = try #require(data["bars"] as? [[String: Any]])
        #expect(bars.count == 10)
        #expect(bars.filter { $0["status"] as? String == "failure" }.count == 2)
        #expect(bars.filter { $0["status"] as? String == "running" }.count == 1)
        let failed = try #require(bars.first { ($0["label"] as? String) == "Premium › Express Checkout" })
        let details = try #require(failed["details"] as? [[String]])
        #expect(details.contains(["Message", "Card declined"]))
        #expect(details.contains(["Queue", "com.apple.main-thread"]))
        #expect(
            failed["summary"] as? String
                == "Premium › Express Checkout · 1.5 ms · FAILED, feature terminated: Card declined"
        )
    }

    @Test("text from the report cannot end the data script or inject markup")
    func escapesReportText() throws {
        let html = try page()
        #expect(!html.contains("</script><script>document.body"))
        #expect(html.contains("\\u003c/script\\u003e\\u003cscript\\u003edocument.body"))
        #expect(html.components(separatedBy: "</script>").count == 3)
    }

    @Test("the page carries the statistics page's Content Security Policy, and a report's date is filled in as text")
    func policyAndOnePassFill() throws {
        let scratch = try ScratchDirectory()
        let report = try LongTextReport.write(
            to: scratch.path("report.json"),
            long: false,
            generatedAt: "{{data}} <b>x</b> {{script}} {{title}}"
        )
        let output = scratch.path("timeline.html")
        #expect(runTool(["dump", report, "--html", output]).status == 0)
        let html = try String(contentsOfFile: output, encoding: .utf8)
        #expect(
            html.contains(
                "<meta http-equiv=\"Content-Security-Policy\" content=\"\(PageTemplate.contentSecurityPolicy)\">"
            )
        )
        let shown = "Actuate timeline, {{data}} &lt;b&gt;x&lt;/b&gt; {{script}} {{title}}"
        #expect(html.contains("<title>\(shown)</title>"))
        #expect(html.contains("<h1>\(shown)</h1>"))
        #expect(html.components(separatedBy: "id=\"timeline-data\"").count - 1 == 1)
        #expect(html.components(separatedBy: "\"use strict\"").count - 1 == 1, "the script was written twice")
    }

    @Test("the summary counts actions, sessions and failures")
    func summary() throws {
        #expect(
            try page().contains(
                "<div id=\"summary\">10 actions in 2 sessions, 2 failed, 1 cancelled, over 15.0 ms</div>"
            )
        )
        #expect(try page("report-successes.json").contains("6 actions in 2 sessions, 0 failed"))
    }

    private func embeddedData(_ html: String) throws -> [String: Any] {
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"timeline-data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let json = Data(html[start.upperBound..<end.lowerBound].utf8)
        return try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    }

    private func burstyPage() throws -> String {
        let scratch = try ScratchDirectory()
        let report = try BurstyReport.write(to: scratch.path("report.json"))
        let output = scratch.path("timeline.html")
        let result = runTool(["dump", report, "--html", output])
        #expect(result.status == 0, "\(result.error)")
        return try String(contentsOfFile: output, encoding: .utf8)
    }

    @Test("the embedded scale draws the long idle gaps as breaks and names the busiest stretch")
    func scaleWithBreaks() throws {
        let data = try embeddedData(try burstyPage())
        let segments = try #require(data["segments"] as? [[String: Any]])
        #expect(segments.map { $0["isBreak"] as? Bool } == [false, true, false, true, false])
        // The first burst ends at 41.4 ms, the second runs from 3 s to 3.0155 s, the last from 9 s to 9.03 s.
        let breaks = segments.filter { $0["isBreak"] as? Bool == true }
        #expect(breaks.map { $0["start"] as? Int64 } == [41_400_000, 3_015_500_000])
        #expect(breaks.map { $0["end"] as? Int64 } == [3_000_000_000, 9_000_000_000])
        let scaled = 9_030_000_000.0 - (3_000_000_000 - 41_400_000) - (9_000_000_000 - 3_015_500_000)
        let width =
            try #require(breaks.first.flatMap { $0["displayEnd"] as? Double })
            - (breaks[0]["displayStart"] as? Double ?? 0)
        #expect(abs(width - scaled * TimelineGaps.breakFraction) < 1)
        // Two thirds of the 45 actions, all in the first burst.
        let busiest = try #require(data["busiest"] as? [Int64])
        #expect(busiest.count == 2 && busiest[0] >= 0 && busiest[1] <= 41_400_000)
        let bars = try #require(data["bars"] as? [[String: Any]])
        let inside = bars.filter { ($0["start"] as? Int64).map { $0 >= busiest[0] && $0 <= busiest[1] } ?? false }
        #expect(inside.count >= 30)
        let failed = try #require(bars.first { $0["status"] as? String == "failure" })
        #expect(failed["feature"] as? String == "Checkout")
        #expect(failed["action"] as? String == "Pay")
        #expect(failed["duration"] as? Int64 == 2_200_000)
        #expect(failed["outcome"] as? String == "FAILED: Card declined")
    }

    @Test("the page has zoom controls, the idle-gap switch, the filters and a table sortable by start and duration")
    func controls() throws {
        let html = try burstyPage()
        for id in [
            "zoom-reset", "zoom-busy", "zoom-in", "zoom-out", "collapse-gaps", "filter-session", "filter-queue",
            "filter-feature", "filter-failed", "actions",
        ] {
            #expect(html.contains("id=\"\(id)\""), "no #\(id)")
        }
        #expect(html.contains("data-sort=\"start\"") && html.contains("data-sort=\"duration\""))
        #expect(html.contains("collapse 2 idle gaps (8.94 s)"))
    }
}
