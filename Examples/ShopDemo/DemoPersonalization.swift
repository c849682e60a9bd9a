import Actuate
import ActuatePersonalization
import ActuateReporting
import Foundation
import Synchronization

/// The personalisation part of the demo: a recommendation banner chosen by embedded local rules, shown on a
/// terminal "surface", a product click inside it, a close for 2 sessions, two sessions without it, its
/// return, and the banner's statistics.
enum DemoPersonalization {
    /// The embedded rules: one banner of recommendations for visitors on the home page.
    static let rules = #"""
        {
          "actions": [
            {
              "id": 201,
              "name": "Recommended for you",
              "contentType": "text/html",
              "content": "<p>Recommended for you:</p><a href=\"https://shop.example.com/p/p2\" data-actuate-product=\"p2\">Trail shoes</a> <a href=\"https://shop.example.com/p/p3\" data-actuate-product=\"p3\">Rain jacket</a> <a href=\"https://shop.example.com/sale\">See the sale</a> <button data-actuate-close=\"2\">×</button>"
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

    static func run(reporting: DemoReporting) async throws {
        print("\n6. Personalisation: a recommendation banner from local rules, closed for 2 sessions")
        let source = try LocalDecisionSource(data: Data(rules.utf8), name: "embedded demo rules")
        let tracker = Tracker(
            source: source,
            reporter: reporting.reporter,
            directory: reporting.directory.appendingPathComponent("tracker")
        )
        let surface = TerminalHTMLSurface()
        for visit in 1...4 {
            if visit > 1 { tracker.startNewSession() }
            try tracker.navigate(documentName: "home")
            let result = try await tracker.getResult()
            guard let banner = result.action(id: 201) else {
                let remaining = tracker.hiddenSessionsRemaining(actionId: 201) ?? 0
                print("   Session \(visit): the banner stays hidden (\(remaining) more session(s) after this one).")
                continue
            }
            print("   Session \(visit): the rules show \(banner.description)")
            banner.render(on: surface) { clicked in
                print("     ↳ the bridge reports \(clicked.status.rawValue) arg=\(clicked.arg) href=\(clicked.href)")
            }
            await tracker.waitForReports()
            if visit == 1 {
                await surface.click(
                    #"{"status":"product","href":"https://shop.example.com/p/p2","arg":"p2"}"#,
                    on: "Trail shoes",
                    tracker
                )
                await surface.click(#"{"status":"close","href":"","arg":"2"}"#, on: "×", tracker)
            } else {
                await surface.click(
                    #"{"status":"target","href":"https://shop.example.com/sale","arg":""}"#,
                    on: "See the sale",
                    tracker
                )
            }
        }
        let statistics = try ReportingStatistics(store: reporting.store)
        if let figures = statistics[.contentAction(id: 201)] {
            print("   The banner's figures:")
            print("     impressions \(figures.impressions), CTR \(percent(figures.clickThroughRate)), ", terminator: "")
            print("close rate \(percent(figures.closeRate)), product clicks \(figures.productClicks)")
        }
        print(statistics.description.split(separator: "\n").map { "   " + $0 }.joined(separator: "\n"))
    }

    private static func percent(_ rate: Double?) -> String {
        rate.map { String(format: "%.0f%%", $0 * 100) } ?? "-"
    }
}

/// An ``HTMLSurface`` for a terminal: it prints the content's text and lets the demo click elements by posting
/// the message the page's bridge posts for them.
final class TerminalHTMLSurface: HTMLSurface {
    private let onMessage = Mutex<(@Sendable (String) -> Void)?>(nil)

    func load(
        html: String,
        bridgeName: String,
        onMessage: @escaping @Sendable (String) -> Void,
        completion: @escaping @Sendable (HTMLSurfaceLoadResult) -> Void
    ) {
        self.onMessage.withLock { $0 = onMessage }
        print("     ┃ \(DemoHTMLText.text(of: html, upTo: "</body>"))")
        completion(.loaded(size: nil))
    }

    /// Clicks the element labelled `label`: posts `message`, as the bridge would, and waits until `tracker` has
    /// recorded it.
    func click(_ message: String, on label: String, _ tracker: Tracker) async {
        print("     👆 \(label)")
        onMessage.withLock { $0 }?(message)
        await tracker.waitForReports()
    }
}
