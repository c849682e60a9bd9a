import Actuate
import ActuatePersonalization
import ActuateReporting
import Foundation

/// `swift run shop-demo`: walks through Actuate's capabilities on embedded defaults.
@main
struct ShopDemo {
    static func main() async {
        let options = DemoOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        if options.showHelp {
            print(DemoOptions.help)
            return
        }
        do {
            if let format = options.catalogFormat {
                try printCatalog(format)
                return
            }
            try await run(options)
        } catch {
            FileHandle.standardError.write(Data("shop-demo: \(error)\n".utf8))
            exit(1)
        }
    }

    private static func run(_ options: DemoOptions) async throws {
        let reporting = try DemoReporting()
        defer { reporting.finish() }
        let activities = RecordingActivityPublisher()
        let stacks = ActionStacksPlugin()
        // The actions' catalog and recommendation service are dependencies of this system, not globals.
        var dependencies = DependencyValues()
        let catalog = Catalog()
        dependencies[CatalogKey.self] = catalog
        dependencies[RecommendationServiceKey.self] = CatalogRecommendationService(catalog: catalog)
        let system = try ActuateSystem.quickSetup(
            group: ShopFeatures.self,
            configuration: ActuateConfiguration(
                plugins: [stacks],
                timelineMaxEntries: 200,
                routes: routes,
                dependencies: dependencies
            ),
            reporting: reporting.setup(activities: activities)
        )
        system.debugReport.register(try ActionCatalog(group: ShopFeatures.self, routes: routes))
        let presenter = TerminalPresenter()
        let cart = Cart()
        system.router.setPresenter(for: CatalogFeature.showProduct) { presenter }
        system.router.add(observer: DemoRouteLog())

        section("1. Features and actions, with analytics and an activity")
        await CatalogFeature.showProduct.perform(input: "p1", presenter: presenter)
        let published = activities.current
        if let activity = published {
            print("   📲 activity published: \(activity.title ?? "") (\(activity.activityType))")
            // Show Product has a URL route, so its activity carries the route link without any code for it.
            print("      carrying its route link \(activity.url?.absoluteString ?? "(none)")")
        }
        await CartFeature.addToCart.perform(input: CartProductInput(cart: cart, productID: "p1"), presenter: presenter)
        let missing = await CatalogFeature.showProduct.perform(input: "p404", presenter: presenter)
        print("   Showing an unknown product fails, as it should: \(missing.error.map { "\($0)" } ?? "no error")")

        section("2. A URL route: shop://product/$(id)")
        let link = try system.links.appLink(to: CatalogFeature.showProduct, input: "p2")
        print("   Opening \(link.absoluteString)")
        let routed = await system.open(url: link)
        print("   → \(routed)")
        print("   Opening shop://nowhere → \(await system.open(url: URL(string: "shop://nowhere")!))")
        if let activity = published {
            // Handoff or Spotlight hands the activity back: its route link performs Show Product through the router.
            print("   Continuing the activity published in 1 (no decoder registered for it)")
            let continued = await ActivityRouter(urlRouter: system.router).continue(
                activityType: activity.activityType,
                userInfo: activity.userInfo,
                session: system.mainSession
            )
            print("   → \(continued)")
        }

        section("3. An async action (the recommendation service)")
        await RecommendationsFeature.fetch.perform(input: "p1", presenter: presenter)
        await CartFeature.addToCart.perform(input: CartProductInput(cart: cart, productID: "p2"), presenter: presenter)

        section("4. A conditional feature: express checkout behind a user toggle")
        print("   Premium available? \(describe(system.availability.isAvailable(PremiumFeature.self)))")
        if system.request(PremiumFeature.expressCheckout) == nil {
            print("   The toggle is off, so there is no way to perform express checkout.")
        }
        system.availability.setUserToggle(PremiumFeature.self, enabled: true)
        print(
            "   The user switches it on. Available? \(describe(system.availability.isAvailable(PremiumFeature.self)))"
        )
        if let expressCheckout = system.request(PremiumFeature.expressCheckout) {
            await expressCheckout.perform(input: cart, presenter: presenter)
        }

        section("5. Reporting")
        let stored = try reporting.store.count()
        print("   \(stored) events are stored durably in \(reporting.store.directory.path).")
        print("   No collector is configured in this demo, so they stay on disk until one is; nothing is lost.")
        print(indent(try reporting.statistics().description))

        try await DemoPersonalization.run(reporting: reporting, system: system)
        try await DemoCampaigns.run(reporting: reporting, campaignServer: options.campaignServer)
        // --check starts from an empty display history, so the first-run story (the onlyOnce welcome block) runs.
        let history =
            options.check
            ? reporting.directory.appendingPathComponent("content-blocks") : DemoContentBlocks.dataDirectory
        try await DemoContentBlocks.run(reporting: reporting, system: system, historyDirectory: history)
        section("Action stacks")
        print(indent(stacks.textDump()))

        section("Timeline")
        print(indent(system.timeline.textDump()))

        var statisticsPage: URL?
        if let directory = options.dumpDirectory {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let files = try system.debugReport.write(to: directory)
            print("\nDebug report written to \(files.json.path) and \(files.text.path)")
            let events = try copyEventStore(reporting.store, into: directory)
            print("Event store copied to \(events.path) (try `swift run actuate stats \(events.path)`)")
            let page = directory.appendingPathComponent("stats.html")
            try writeStatisticsPage(StatisticsReport(fileStoreDirectory: events), to: page)
            print(
                "Statistics page written to \(page.path): open it in a browser "
                    + "(the same page as `swift run actuate stats \(events.path) --html stats.html`)"
            )
            statisticsPage = page
        } else if options.check {
            try reporting.store.flush()
            let page = reporting.directory.appendingPathComponent("stats.html")
            try writeStatisticsPage(StatisticsReport(store: reporting.store), to: page)
            statisticsPage = page
        } else {
            section("See these figures as a page")
            print("   swift run shop-demo --dump /tmp/shop-demo")
            print("   swift run actuate stats /tmp/shop-demo/events --html stats.html")
            print("   (charts per content with 95% intervals, the funnel, campaign lift against zero, the actions)")
        }
        if options.check {
            let failed = try DemoCheck(
                store: reporting.store,
                debugReport: system.debugReport,
                statisticsPage: statisticsPage,
                activities: activities.activities,
                campaignServer: options.campaignServer
            )
            .report()
            guard failed.isEmpty else { throw DemoCheckFailed(claims: failed.map(\.text)) }
            print("Every claim holds.")
        }
    }

    /// Copies the demo's event store into `directory`/events, so that it outlives the demo for `actuate stats`.
    private static func copyEventStore(_ store: FileEventStore, into directory: URL) throws -> URL {
        try store.flush()
        let destination = directory.appendingPathComponent("events")
        try? FileManager.default.removeItem(at: destination)
        try FileManager.default.copyItem(at: store.directory, to: destination)
        return destination
    }

    /// Writes the statistics page `actuate stats --html` writes, from the same library code.
    private static func writeStatisticsPage(_ report: StatisticsReport, to page: URL) throws {
        try Data(StatisticsPage(report: report, title: "Shop demo statistics").html().utf8).write(to: page)
    }

    /// The shop's app scheme and universal-link host.
    private static let routes = URLRouterConfiguration(appSchemes: ["shop"], universalLinkHosts: ["shop.example.com"])

    /// Prints the catalog of the shop's features and actions, built from its registered feature group.
    private static func printCatalog(_ format: DemoOptions.CatalogFormat) throws {
        let catalog = try ActionCatalog(group: ShopFeatures.self, routes: routes)
        switch format {
        case .markdown: print(catalog.markdown(), terminator: "")
        case .json: print(String(decoding: try catalog.jsonData(), as: UTF8.self))
        }
    }

    private static func section(_ title: String) {
        print("\n\(title)")
    }

    private static func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "   " + $0 }.joined(separator: "\n")
    }

    private static func describe(_ availability: Bool?) -> String {
        availability.map { $0 ? "yes" : "no" } ?? "not known yet"
    }
}

/// What `--check` found wrong: the claims the record does not bear out.
struct DemoCheckFailed: Error, CustomStringConvertible {
    var claims: [String]

    var description: String {
        "\(claims.count) claim(s) do not hold:\n" + claims.map { "  ✗ \($0)" }.joined(separator: "\n")
    }
}

/// Prints each URL the router opens, whoever asked: the demo's own calls, or a link clicked in content.
final class DemoRouteLog: URLRouteObserver {
    func urlRouter(_ router: URLRouter, didOpen opening: URLOpening) {
        print("   🔗 \(opening.url.absoluteString) opens through the router: \(opening.result)")
    }
}
