import Foundation
import Testing

@testable import ActuateCLI

/// Opens the timeline page in a real headless browser. Skipped when Chromium is not installed, unless
/// `ACTUATE_REQUIRE_BROWSER=1` (which `.ci/run` sets after installing it), which makes a missing browser a
/// failure.
@Suite(
    "Timeline page in a headless browser",
    .enabled(
        if: HeadlessBrowser.installed != nil || HeadlessBrowser.isRequired,
        "Chromium is not installed (apt-get install chromium); ACTUATE_REQUIRE_BROWSER=1 turns this skip into a failure"
    )
)
struct TimelinePageBrowserTests {
    private static let failureColour = String(TimelinePage.failureColor.dropFirst())
    private static let successColour = String(TimelinePage.successColor.dropFirst())

    private struct RenderedPage {
        var dom: String
        var chartRect: [Int]
        var pixels: [String: Int]
    }

    private func render(_ fixture: String) async throws -> RenderedPage {
        let browser = try #require(
            HeadlessBrowser.installed,
            "ACTUATE_REQUIRE_BROWSER=1 but no chromium is on PATH; install it with apt-get install chromium"
        )
        let scratch = try ScratchDirectory()
        let page = URL(fileURLWithPath: scratch.path("timeline.html"))
        let result = runTool(["dump", Fixtures.path(fixture), "--html", page.path])
        try #require(result.status == 0, "actuate dump failed: \(result.error)")
        let profile = URL(fileURLWithPath: scratch.path("profile"))
        let (dom, log) = try await browser.dumpDOM(of: page, profile: profile)
        #expect(!log.contains("Uncaught"), "the browser logged a script error:\n\(log)")
        let rectText = try #require(attribute("data-chart-rect", in: dom), "the script never measured the chart")
        let chartRect = rectText.split(separator: ",").compactMap { Int($0) }
        try #require(chartRect.count == 4 && chartRect[2] > 0 && chartRect[3] > 0)
        let screenshot = URL(fileURLWithPath: scratch.path("timeline.png"))
        _ = try await browser.screenshot(of: page, to: screenshot, profile: profile)
        let pixels = try await PNGPixels.count(
            in: screenshot,
            rect: chartRect,
            colours: [Self.failureColour, Self.successColour]
        )
        return RenderedPage(dom: dom, chartRect: chartRect, pixels: pixels)
    }

    private func attribute(_ name: String, in dom: String) -> String? {
        guard let start = dom.range(of: "\(name)=\"") else { return nil }
        guard let end = dom[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(dom[start.upperBound..<end])
    }

    @Test("the script runs without errors and draws a bar per action; failed bars show in red in a screenshot")
    func drawsBars() async throws {
        let page = try await render("report-v1.json")
        #expect(attribute("data-render", in: page.dom) == "ok")
        #expect(page.dom.contains("Drew 10 bars."))
        #expect(page.dom.components(separatedBy: "data-status=\"failure\"").count - 1 == 2)
        #expect(page.dom.components(separatedBy: "data-status=\"running\"").count - 1 == 1)
        #expect(page.dom.components(separatedBy: "<script").count - 1 == 2, "report text became markup")
        #expect(page.pixels[Self.failureColour, default: 0] > 500, "failure pixels: \(page.pixels)")
        #expect(page.pixels[Self.successColour, default: 0] > 500, "success pixels: \(page.pixels)")
    }

    @Test("opening the page at #request-N shows that action's details, as a click on its bar does")
    func detailsFromAddress() async throws {
        let browser = try #require(HeadlessBrowser.installed, "ACTUATE_REQUIRE_BROWSER=1 but no chromium is on PATH")
        let scratch = try ScratchDirectory()
        let page = URL(fileURLWithPath: scratch.path("timeline.html"))
        #expect(runTool(["dump", Fixtures.path("report-v1.json"), "--html", page.path]).status == 0)
        let address = try #require(URL(string: page.absoluteString + "#request-6"))
        let (dom, _) = try await browser.dumpDOM(of: address, profile: URL(fileURLWithPath: scratch.path("profile")))
        let details = try #require(dom.range(of: "<div id=\"details\">"))
        let panel = dom[details.upperBound...].prefix { $0 != "\n" }
        #expect(panel.contains("<strong>Premium › Express Checkout</strong>"))
        #expect(panel.contains("<th>Message</th><td>Card declined</td>"))
        #expect(panel.contains("<th>Outcome</th><td>failureWithFeatureTermination</td>"))
        #expect(dom.components(separatedBy: "bar failure selected").count - 1 == 1)
    }

    @Test("a timeline without failures has no red in its chart, so the pixel check can tell")
    func noFailuresNoRed() async throws {
        let page = try await render("report-successes.json")
        #expect(attribute("data-render", in: page.dom) == "ok")
        #expect(page.dom.contains("Drew 6 bars."))
        #expect(page.pixels[Self.failureColour] == 0, "failure pixels: \(page.pixels)")
        #expect(page.pixels[Self.successColour, default: 0] > 500)
    }
}
