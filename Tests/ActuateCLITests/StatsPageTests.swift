import Actuate
import ActuatePersonalization
import ActuateReporting
import Foundation
import Testing

/// A file store with a banner shown on two UTC days, a hostile content name, and a campaign with a control group.
struct StatsPageStore {
    static let hostileName = "</script><img src=x onerror=alert(1)>&amp;"
    let path: String

    init(in scratch: ScratchDirectory) throws {
        let directory = URL(fileURLWithPath: scratch.path("events"))
        let store = try FileEventStore(
            directory: directory,
            configuration: FileEventStoreConfiguration(durability: .synced)
        )
        let newYear = 1_767_225_600.0
        let banner = ContentReference.contentAction(id: 7, name: "Spring banner")
        let hostile = ContentReference.contentAction(id: 8, name: Self.hostileName)
        func content(
            _ event: ContentEvent,
            _ reference: ContentReference,
            at seconds: Double,
            visitor: String = "anon"
        )
            -> ReportEvent
        {
            ReportEvent(
                type: event.status.rawValue,
                timestamp: Date(timeIntervalSince1970: newYear + seconds),
                sessionID: "s-\(visitor)",
                anonymousID: visitor,
                properties: EventProperties.content(event, for: reference)
            )
        }
        var events = [
            content(.executed, banner, at: 10), content(.target(), banner, at: 20), content(.executed, banner, at: 30),
            content(.executed, banner, at: 86_400 + 10), content(.executed, hostile, at: 40),
        ]
        for index in 0..<10 {
            let control = index >= 5
            var impression = content(.executed, .campaign(id: "summer"), at: 50, visitor: "v\(index)")
            if control { impression.type = "control_impression" }
            events.append(impression)
            if index == 0 || index == 1 || index == 5 {
                events.append(
                    ReportEvent(
                        type: "purchase",
                        timestamp: Date(timeIntervalSince1970: newYear + 100),
                        sessionID: "s-v\(index)",
                        anonymousID: "v\(index)",
                        properties: EventProperties.purchase(productIDs: ["sku"])
                    )
                )
            }
        }
        for event in events { try store.append(event) }
        try store.close()
        path = directory.path
    }
}

@Suite("actuate stats: JSON fields and the HTML page")
struct StatsPageTests {
    @Test("--json carries intervals, series, the series interval and each campaign's lift with its verdict")
    func jsonFields() throws {
        let scratch = try ScratchDirectory()
        let store = try StatsPageStore(in: scratch)
        let result = runTool(["stats", store.path, "--json"])
        #expect(result.status == 0, "\(result.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["seriesInterval"] as? String == "day")
        let contents = try #require(object["contents"] as? [[String: Any]])
        let banner = try #require(contents.first { ($0["content"] as? [String: Any])?["id"] as? String == "7" })
        let figures = try #require(banner["figures"] as? [String: Any])
        let interval = try #require(figures["clickThroughRateInterval"] as? [String: Double])
        let expected = try #require(RateInterval.wilson(successes: 1, trials: 3))
        // JSONSerialization may read a double one unit in the last place off.
        #expect(abs((interval["lower"] ?? 9) - expected.lower) < 1e-12)
        #expect(abs((interval["upper"] ?? 9) - expected.upper) < 1e-12)
        let series = try #require(banner["series"] as? [[String: Any]])
        #expect(series.map { $0["start"] as? String } == ["2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"])
        #expect(series.map { $0["impressions"] as? Int } == [2, 1])
        let campaigns = try #require(object["campaigns"] as? [[String: Any]])
        let summer = try #require(campaigns.first)
        #expect(summer["campaignId"] as? String == "summer")
        #expect(summer["testVisitors"] as? Int == 5 && summer["testConversions"] as? Int == 2)
        #expect(summer["controlVisitors"] as? Int == 5 && summer["controlConversions"] as? Int == 1)
        #expect(summer["verdict"] as? String == "notDistinguishableYet")
        #expect(summer["liftInterval"] is [String: Double])
        #expect(summer["visitorsPerGroupNeeded"] is Int)
    }

    @Test("--series hour gives hourly points; any other unit is a usage error")
    func seriesOption() throws {
        let scratch = try ScratchDirectory()
        let store = try StatsPageStore(in: scratch)
        let hourly = runTool(["stats", store.path, "--json", "--series", "hour"])
        #expect(hourly.status == 0)
        #expect(hourly.output.contains("\"seriesInterval\" : \"hour\""))
        let bad = runTool(["stats", store.path, "--series", "week"])
        #expect(bad.status == 2)
        #expect(bad.error.contains("--series must be day or hour, not \"week\""))
    }

    @Test("the text output prints each campaign's lift with its interval and verdict")
    func textLift() throws {
        let scratch = try ScratchDirectory()
        let store = try StatsPageStore(in: scratch)
        let result = runTool(["stats", store.path])
        #expect(result.status == 0)
        #expect(result.output.contains("summer, purchase: test 2/5 (40.0%, 95% CI"))
        #expect(result.output.contains(": not distinguishable yet;"))
    }

    @Test("--html writes one self-contained page; text from the store never becomes markup")
    func page() throws {
        let scratch = try ScratchDirectory()
        let store = try StatsPageStore(in: scratch)
        let output = scratch.path("stats.html")
        let result = runTool(["stats", store.path, "--html", output])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("Wrote the statistics page (3 contents, 1 campaigns, 0 actions) to \(output)"))
        let html = try String(contentsOfFile: output, encoding: .utf8)
        #expect(html.contains("Content-Security-Policy\" content=\"default-src 'none'"))
        #expect(!html.contains("<img"), "a content name became markup")
        #expect(!html.contains("</script><"), "a content name closed the data script")
        #expect(html.contains(#"\u003c/script\u003e\u003cimg src=x onerror=alert(1)\u003e\u0026amp;"#))
        // The SVG namespace is a name, not a request.
        let withoutNamespace = html.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "")
        for reference in ["http://", "https://", "src=\"", "href=\"", "url("] {
            #expect(!withoutNamespace.contains(reference), "the page refers to \(reference)")
        }
        let missing = runTool(["stats", store.path, "--html", scratch.path("no/such/dir/stats.html")])
        #expect(missing.status == 1)
        #expect(missing.error.contains("does not exist"))
    }
}

@Suite(
    "Statistics page in a headless browser",
    .enabled(
        if: HeadlessBrowser.installed != nil || HeadlessBrowser.isRequired,
        "Chromium is not installed (apt-get install chromium); ACTUATE_REQUIRE_BROWSER=1 turns this skip into a failure"
    )
)
struct StatsPageBrowserTests {
    @Test("the script draws a chart per content, the funnel and the lift against zero, and shows hostile names as text")
    func drawsThePage() async throws {
        let browser = try #require(HeadlessBrowser.installed, "ACTUATE_REQUIRE_BROWSER=1 but no chromium is on PATH")
        let scratch = try ScratchDirectory()
        let store = try StatsPageStore(in: scratch)
        let page = URL(fileURLWithPath: scratch.path("stats.html"))
        let result = runTool(["stats", store.path, "--html", page.path])
        try #require(result.status == 0, "\(result.error)")
        let (dom, log) = try await browser.dumpDOM(of: page, profile: URL(fileURLWithPath: scratch.path("profile")))
        #expect(!log.contains("Uncaught"), "the browser logged a script error:\n\(log)")
        #expect(dom.contains("data-render=\"ok\""), "\(dom.suffix(400))")
        #expect(dom.contains("data-charts=\"3\""))
        #expect(dom.components(separatedBy: "class=\"content-chart\"").count - 1 == 3)
        #expect(dom.contains("class=\"ctr-band\""), "no interval band drawn")
        #expect(dom.contains("data-step=\"shown\" data-count=\"9\""))
        #expect(dom.contains("data-campaign=\"summer\" data-verdict=\"notDistinguishableYet\""))
        #expect(dom.contains("class=\"lift-interval\"") && dom.contains("class=\"zero-line\""))
        #expect(!dom.contains("<img"), "a content name became an element")
        #expect(dom.contains("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&amp;amp;"))
    }
}
