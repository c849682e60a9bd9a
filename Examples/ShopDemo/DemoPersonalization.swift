import Actuate
import ActuatePersonalization
import ActuatePersonalizationTesting
import ActuateReporting
import ActuateTesting
import Foundation

/// The personalization part of the demo: a recommendation banner chosen by embedded local rules, shown on a
/// simulated surface, a product click inside it (a universal link the router opens), a close for 2 sessions
/// (counting the one it is closed in, as Personyze counts), the banner hidden for the rest of that session and the
/// next one, its return in the third with a click on a `shop://` deep link, and the banner's statistics.
enum DemoPersonalization {
    /// The embedded rules: one banner of recommendations for visitors on the home page.
    static let rules = #"""
        {
          "actions": [
            {
              "id": 201,
              "name": "Recommended for you",
              "contentType": "text/html",
              "content": "<p>Recommended for you:</p><a href=\"https://shop.example.com/product/p2\" data-actuate-product=\"p2\">Burr grinder</a> <a href=\"https://shop.example.com/product/p4\" data-actuate-product=\"p4\">Tamper</a> <a href=\"shop://product/p3\">Today's pick</a> <button data-actuate-close=\"2\">×</button>"
            }
          ],
          "conditions": [
            {
              "id": 1,
              "name": "Home page visitors",
              "actions": [201],
              "targeting": { "documents": ["home"] }
            }
          ]
        }
        """#

    static func run(reporting: DemoReporting, system: ActuateSystem) async throws {
        print("\n6. Personalization: a recommendation banner from local rules, closed for 2 sessions")
        print("   (Personyze counts the session it is closed in: hidden for the rest of it and the next one)")
        let source = try LocalDecisionSource(data: Data(rules.utf8), name: "embedded demo rules")
        let tracker = Tracker(
            source: source,
            reporter: reporting.reporter,
            directory: reporting.directory.appendingPathComponent("tracker"),
            onError: { problem in print("     ⚠️ \(problem)") }
        )
        // A surface that behaves like a browser: it prints what it loads, and a click posts what the page's
        // bridge script posts, with the page's token.
        let surface = SimulatedHTMLSurface { surface in print("     ┃ \(surface.text)") }
        for visit in 1...3 {
            if visit > 1 { tracker.startNewSession() }
            try tracker.navigate(documentName: "home")
            let result = try await tracker.getResult()
            guard let banner = result.action(id: 201) else {
                printHidden(in: "Session \(visit)", tracker)
                // Its `dont-show` report is recorded in this session before the next one starts.
                await tracker.waitForReports()
                continue
            }
            print("   Session \(visit): the rules show \(banner.description)")
            // Wired through the system: its links, web or `shop://`, open through the app's router.
            banner.render(on: surface, system: system) { clicked in
                print("     ↳ the bridge reports \(clicked.status.rawValue) arg=\(clicked.arg) href=\(clicked.href)")
            }
            await tracker.waitForReports()
            if visit == 1 {
                try await click(link: "Burr grinder", on: surface, tracker)
                print("     👆 ×")
                try surface.close()
                await tracker.waitForReports()
                // Back on the home page in the same session: the session it was closed in is the first of the 2.
                try tracker.navigate(documentName: "home")
                if try await tracker.getResult().action(id: 201) == nil {
                    printHidden(in: "Session 1, back on home", tracker)
                }
                // Reports are performed as actions, on their own queue; the `dont-show` above must be recorded
                // in this session, before `startNewSession()` starts the next one.
                await tracker.waitForReports()
            } else {
                try await click(link: "Today's pick", on: surface, tracker)
            }
        }
        let statistics = try ReportingStatistics(store: reporting.store)
        if let figures = statistics[.contentAction(id: 201)] {
            print("   The banner's figures:")
            print("     impressions \(figures.impressions), CTR \(percent(figures.clickThroughRate)), ", terminator: "")
            print("close rate \(percent(figures.closeRate)), product clicks \(figures.productClicks)")
        }
        print(statistics.description.split(separator: "\n").map { "   " + $0 }.joined(separator: "\n"))
        // The tracker writes its files behind the caller; before the process ends, let the last snapshot land.
        await tracker.waitForWrites()
    }

    /// Prints that the banner is hidden, and for how many sessions after the current one.
    private static func printHidden(in moment: String, _ tracker: Tracker) {
        let remaining = tracker.hiddenSessionsRemaining(actionID: 201) ?? 0
        print("   \(moment): the banner stays hidden (\(remaining) more session(s) after this one).")
    }

    /// Clicks the banner's link with `text` and waits until the click is recorded and its link has opened.
    private static func click(link text: String, on surface: SimulatedHTMLSurface, _ tracker: Tracker) async throws {
        print("     👆 \(text)")
        try surface.clickLink(text: text)
        await tracker.waitForReports()
    }

    private static func percent(_ rate: Double?) -> String {
        rate.map { String(format: "%.0f%%", $0 * 100) } ?? "-"
    }
}
