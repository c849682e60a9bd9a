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

    @Test("the summary counts actions, sessions and failures")
    func summary() throws {
        #expect(try page().contains("<div id=\"summary\">10 actions in 2 sessions, 2 failed, over 15.0 ms</div>"))
        #expect(try page("report-successes.json").contains("6 actions in 2 sessions, 0 failed"))
    }
}
