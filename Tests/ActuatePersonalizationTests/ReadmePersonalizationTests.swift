import Foundation
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins
@testable import ActuateReporting

/// The snippets of the DocC article "Content actions and the tracker" (once the README's), copied here verbatim so that
/// they compile; the ones that touch no process-wide state also run.
@Suite("README: Personalization")
struct ReadmePersonalizationTests {
    /// The first snippet. Compiled, not run: it installs a plugin on the shared dispatcher of
    /// `ActionSession.main`, which tests must leave alone.
    static func overviewSnippet(
        rulesURL: URL,
        reporter: Reporter,
        supportDirectory: URL,
        bannerSurface: any HTMLSurface,
        hideBanner: @escaping @Sendable () -> Void,
        showNatively: ([[String: String]]) -> Void
    ) async throws {
        let tracker = Tracker(
            source: try LocalDecisionSource(contentsOf: rulesURL),  // or HTTPDecisionSource, below
            reporter: reporter,  // ActuateReporting's Reporter
            directory: supportDirectory.appendingPathComponent("tracker")  // result cache, sessions, suppression
        )
        // Reports run in the tracker's session (ActionSession.main unless you pass one); its dispatcher needs the plugin.
        ActionSession.main.dispatcher.add(plugin: ReportingPlugin(reporter: reporter))

        try tracker.navigate(documentName: "home")  // behaviour: targeting and `behaviour` events
        try tracker.productViewed(productID: "sku-1")
        try tracker.logUserData(field: "tier", value: "gold")  // the value is never recorded in an event

        let result = try await tracker.getResult()  // matched conditions and actions to show
        for action in result.actions {
            if action.contentHtmlDoc != nil {
                action.render(on: bannerSurface) { clicked in  // reports executed, clicks and errors itself
                    if clicked.status == .close { hideBanner() }
                }
            } else if let items = action.contentJsonArray {  // application/json: [[String: String]]
                showNatively(items)
                action.reportExecuted()
            }
        }
    }

    @Test("presenting content yourself: the report calls record what they say")
    func customPresentation() async throws {
        let fixture = TrackerFixture()
        let tracker = fixture.tracker
        let action = ContentAction.banner(tracker: tracker)
        let clicked = ActionClicked(actionID: 8, href: "https://shop.example.com/x", status: .target)
        // README snippet:
        action.reportExecuted()  // it was shown
        action.reportClick()  // its main target was clicked
        action.reportProductClick(productID: "sku-2")  // a product in it was clicked
        action.reportArticleClick(articleID: "care-guide")  // an article in it was clicked
        action.reportClose(dontShowSessions: 2)  // hidden for 2 sessions: the rest of this one and the next
        action.reportError(message: "The image did not load.")
        tracker.reportActionClicked(clicked)  // an ActionClicked from a bridge of your own
        tracker.startNewSession()  // a new session: closed actions count down by one
        // End of snippet.
        #expect(
            try await fixture.eventTypes() == ["executed", "target", "product", "article", "close", "error", "target"]
        )
        #expect(tracker.hiddenSessionsRemaining(actionID: 7) == 0)
    }

    @Test("decision sources and validation, on the shipped example rules")
    func decisionSources() throws {
        let rulesURL = RepositoryFiles.url("Examples/Rules/personalization-rules.json")
        let apiKey = "readme-test-key"
        // README snippet:
        let local = try LocalDecisionSource(contentsOf: rulesURL)  // throws RulesFileError: file, JSON path, problem
        let remote = try HTTPDecisionSource(
            endpoint: URL(string: "https://decisions.example.com/v1/decide")!,
            apiKey: apiKey  // sent as a Bearer header, never logged
        )
        for problem in RulesFile.validate(contentsOf: rulesURL) {
            print(problem)  // $.conditions[0].actions[1]: no action has id 99
        }
        // End of snippet.
        #expect(local.rules.actions.count == 4)
        #expect(remote.isIncremental)
        #expect(RulesFile.validate(contentsOf: rulesURL).isEmpty)
    }

    @Test("the rules example of the article \"Content actions and the tracker\" passes the schema and the loader")
    func readmeRules() throws {
        let readme = try String(
            contentsOf: RepositoryFiles.url(
                "Sources/ActuatePersonalization/ActuatePersonalization.docc/ContentActionsAndTracker.md"
            ),
            encoding: .utf8
        )
        let section = try #require(readme.range(of: "## Overview"))
        let start = try #require(readme.range(of: "```json\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        let data = Data(readme[start.upperBound..<end.lowerBound].utf8)
        #expect(RulesFile.validate(data: data) == [])
        let checker = try SchemaChecker(schema: try Data(contentsOf: RulesSchemaTests.schemaURL))
        #expect(try checker.violations(of: try JSONDecoder().decode(JSONValue.self, from: data)) == [])
    }
}
