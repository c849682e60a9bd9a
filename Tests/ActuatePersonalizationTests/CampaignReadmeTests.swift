import ActuatePersonalizationTesting
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuatePersonalization
@testable import ActuatePlugins
@testable import ActuateReporting
@testable import ActuateTesting

/// The campaign examples of the DocC article "Campaigns" (once the README's): each Swift snippet is copied
/// verbatim below (the test checks that), so it compiles; the JSON is checked by the validator; the testing
/// snippet runs.
@Suite("README: Campaigns")
struct CampaignReadmeTests {
    /// The DocC article "Campaigns" (moved there from the README), from its overview on.
    static func readmeSection() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let article = try String(
            contentsOf: root.appending(path: "Sources/ActuatePersonalization/ActuatePersonalization.docc/Campaigns.md"),
            encoding: .utf8
        )
        let start = try #require(article.range(of: "## Overview\n"))
        let rest = article[start.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// The code blocks of a language in a Markdown text.
    static func blocks(_ language: String, in text: String) -> [String] {
        text.components(separatedBy: "```\(language)\n").dropFirst().compactMap {
            $0.components(separatedBy: "\n```").first
        }
    }

    @Test("Every Swift snippet of the section is copied verbatim in this file")
    func snippetsAreCopied() throws {
        let section = try Self.readmeSection()
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let snippets = Self.blocks("swift", in: section)
        #expect(snippets.count == 4)
        for snippet in snippets {
            let indented = snippet.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : "        " + $0 }.joined(separator: "\n")
            #expect(
                source.contains(indented),
                "copy this Campaigns.md snippet into CampaignReadmeTests.swift:\n\(snippet)"
            )
        }
    }

    @Test("The first examples of Campaigns and ContentBlocks are the persistent, complete forms (issue 47.1)")
    func firstExamplesArePersistent() throws {
        let first = try #require(Self.blocks("swift", in: try Self.readmeSection()).first)
        let configuration = try #require(first.range(of: "configuration: CampaignConfiguration("))
        let directory = try #require(first.range(of: "directory: "), "the first CampaignManager keeps its state")
        #expect(configuration.lowerBound < directory.lowerBound, "the argument order is configuration:, directory:")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let blocksArticle = try String(
            contentsOf: root.appending(
                path: "Sources/ActuatePersonalization/ActuatePersonalization.docc/ContentBlocks.md"
            ),
            encoding: .utf8
        )
        let blocks = try #require(Self.blocks("swift", in: blocksArticle).first)
        #expect(blocks.contains("directory: ") && blocks.contains("configuration: ContentBlockConfiguration("))
    }

    @Test("The articles name what an integrator needed (issue 47.9): the opener's type, the event keys, one clock")
    func articlesNameWhatIntegratorsNeed() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let blocks = try String(
            contentsOf: root.appending(
                path: "Sources/ActuatePersonalization/ActuatePersonalization.docc/ContentBlocks.md"
            ),
            encoding: .utf8
        )
        for needed in [
            "ContentBlockURLOpener", "`actionId`", "`contentSource`", "`dontShowSessions`", "ActuateScheduler",
            "workQueue:", "callbackQueue:", "PersonalizationTestHarness",
        ] {
            #expect(blocks.contains(needed), "ContentBlocks.md names \(needed)")
        }
        #expect(try Self.readmeSection().contains("`ActionTestHarness.session`"), "Campaigns.md says what session is")
    }

    @Test("The section's rules file is valid and earns its campaigns")
    func rulesAreValid() throws {
        let json = try #require(Self.blocks("json", in: try Self.readmeSection()).first)
        #expect(CampaignRules.validateCampaigns(in: Data(json.utf8)).isEmpty)
        let rules = try CampaignRules(data: Data(json.utf8), name: "README")
        let view = CampaignRequest(trigger: .itemView(type: .product, id: "sku-1"), contextName: "Product")
        #expect(rules.campaigns(for: view).map(\.campaignID) == ["summer"])
    }

    @Test("The testing snippet runs: a held campaign is lost to the visibility timeout")
    func testingSnippetRuns() async throws {
        let json = try #require(Self.blocks("json", in: try Self.readmeSection()).first)
        let source = LocalCampaignSource(rules: try CampaignRules(data: Data(json.utf8), name: "README"))
        let harness = ActionTestHarness()
        let session = harness.session
        let reporter = Reporter(
            store: MemoryEventStore(),
            delivery: nil,
            scheduler: harness.scheduler,
            identity: Identity(storage: MemoryIdentityStorage())
        )
        let shoes = try Product(id: "sku-1", name: "Trail shoes", price: 89, currency: "EUR")
        let shown = ShownCampaigns()
        try await testingSnippet(reporter: reporter, source: source, session: session, shoes: shoes, shown: shown)
        #expect(
            harness.timeline.snapshot().map(\.actionName) == ["Hold Campaign", "Drop Campaign"],
            "the snippet's own TestScheduler drives the timeout; the harness's session records the decisions"
        )
    }

    // swift-format-ignore
    /// The README's testing snippet, verbatim.
    func testingSnippet(
        reporter: Reporter,
        source: LocalCampaignSource,
        session: ActionSession,
        shoes: Product,
        shown: ShownCampaigns
    ) async throws {
        let scheduler = TestScheduler()
        let campaigns = CampaignManager(
            reporter: reporter,
            source: source,
            scheduler: scheduler,
            configuration: CampaignConfiguration(deliveryQueue: DispatchQueue(label: "test.delivery"), session: session),
            directory: FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)   // one per test
        )
        let screen = campaigns.makeScreen(named: "Product")
        screen.setCampaignHandler({ shown.append($0) }, forTarget: "product-banner")
        screen.viewItem(shoes)                 // earns a campaign, held: the screen is not visible
        await campaigns.waitUntilSettled()     // the source has answered and the decision is made
        scheduler.advance(by: .seconds(10))    // the visibility timeout drops it and clears the handler
        screen.viewWillAppear()
        screen.viewDidAppear()
        await campaigns.waitUntilSettled()
        #expect(shown.all.isEmpty)
    }

    @Test("The harness snippet runs: a campaign test in five lines")
    func harnessSnippetRuns() async throws {
        let rules = #"""
            {"campaigns": [{"campaignId": "c", "target": "home-banner", "trigger": {"action": "Open Home"}}]}
            """#
        try await harnessSnippet(rules: rules)
    }

    // swift-format-ignore
    /// The article's harness snippet, verbatim.
    func harnessSnippet(rules: String) async throws {
        let app = try PersonalizationTestHarness(rules: rules)
        app.campaigns.globalContext.setCampaignHandler({ _ in }, forTarget: "home-banner")
        app.campaigns.globalContext.trackAction("Open Home")
        await app.settle()
        #expect(try app.events("campaign_delivered").count == 1)
    }

    // swift-format-ignore
    /// The README's campaign-server snippet, verbatim; compiled, not run (it would post to example.com).
    func serverSnippet(reporter: Reporter, apiKey: String, supportDirectory: URL) throws {
        let served = CampaignManager(
            reporter: reporter,
            source: try HTTPCampaignSource(endpoint: URL(string: "https://campaigns.example.com/v1/campaigns")!, apiKey: apiKey),
            directory: supportDirectory.appendingPathComponent("campaigns")   // the cart and order ids survive a relaunch
        )
        served.globalContext.trackAction("Open Home")   // asks the server; what it answers reaches the handlers
    }

    // swift-format-ignore
    /// The README's main snippet, verbatim. It is compiled, not run: it uses the app's defaults (the main
    /// queue, the shared dispatcher and the system clock), which tests leave alone.
    func appSnippet(
        reporter: Reporter,
        rulesURL: URL,
        supportDirectory: URL,
        banner: BannerView?,
        store: any EventStore
    ) throws {
        let campaigns = CampaignManager(
            reporter: reporter,
            source: try LocalCampaignSource(contentsOf: rulesURL),   // errors name the JSON path: $.campaigns[2].target
            scheduler: SystemScheduler.shared,                        // idle time and timeouts; TestScheduler in tests
            configuration: CampaignConfiguration(),                   // timeouts, the delivery queue, the session
            directory: supportDirectory.appendingPathComponent("campaigns")   // order ids, cart, duplicates: across launches
        )
        let screen = campaigns.makeScreen(named: "Product")

        // viewWillAppear: register handlers (capture views weakly) and say what the screen shows.
        screen.viewWillAppear()
        screen.setCampaignHandler({ [weak screen, weak banner] campaign in
            if !campaign.isControlGroup { banner?.show(campaign.data) }   // control group: same logic, nothing shown
            screen?.trackImpression(campaign)                             // a control impression for the control group
        }, forTarget: "product-banner")
        let shoes = try Product(id: "sku-1", name: "Trail shoes", price: 89, currency: "EUR")
        screen.viewItem(shoes)          // earns "summer": held until the screen is visible
        screen.viewDidAppear()          // visible: held campaigns are delivered, on the main queue

        screen.addToCart(try LineItem(product: shoes))
        screen.purchase(try Order(orderID: "A-1001"))   // the cart's lines; a repeated order id is ignored
        screen.viewWillDisappear()                      // handlers and held campaigns are cleared

        let lift = try CampaignStatistics.lift(campaignID: "summer", goal: .purchase, store: store)
        print(lift)   // … lift +50.0% (95% CI −8.4% to +145.6%): not distinguishable yet; 294 visitors per group would detect it
    }
}

/// The README's banner: a view that shows a campaign's data.
final class BannerView: Sendable {
    func show(_ data: [String: JSONValue]) {}
}

/// The campaigns the README's testing snippet received.
final class ShownCampaigns: Sendable {
    private let campaigns = Mutex<[Campaign]>([])

    func append(_ campaign: Campaign) {
        campaigns.withLock { $0.append(campaign) }
    }

    var all: [Campaign] { campaigns.withLock { $0 } }
}
