import Actuate
import ActuatePersonalization
import ActuateReporting
import Foundation

/// `shop-demo --check`: checks every claim the demo's activity, personalization, campaign and content-block
/// sections print, from what was recorded (the event store's statistics and events, the system's debug report and
/// the activities the publisher kept), never from the printed text.
struct DemoCheck {
    /// One claim and whether the record bears it out.
    struct Claim {
        var text: String
        var holds: Bool
        var found: String
    }

    let events: [ReportEvent]
    let statistics: ReportingStatistics
    let timeline: [TimelineEntry]
    /// The campaign server the campaigns came from, or nil for the embedded rules.
    let campaignServer: URL?
    /// The statistics page the demo wrote, read back, or nil when none was written or it could not be read.
    let page: String?
    /// The figures embedded in the page, decoded, or nil when the page holds none.
    let pageReport: StatisticsReport?
    /// The activities the demo's publisher recorded.
    let activities: [PublishedActivity]

    /// Reads the store, the debug report and the statistics page, as `actuate stats` and `actuate dump` read them,
    /// and takes the activities the demo's publisher recorded.
    init(
        store: FileEventStore,
        debugReport: DebugReport,
        statisticsPage: URL?,
        activities: [PublishedActivity],
        campaignServer: URL? = nil
    ) throws {
        self.campaignServer = campaignServer
        self.activities = activities
        try store.flush()
        page = statisticsPage.flatMap { try? String(contentsOf: $0, encoding: .utf8) }
        pageReport = page.flatMap(Self.embeddedReport(in:))
        events = try store.fetch(count: try store.count(), maxBytes: Int.max / 2)
        statistics = try ReportingStatistics(store: store)
        let document = try DebugReportDecoder().decodeReport(from: try debugReport.jsonData())
        timeline = document.timeline?.entries ?? []
    }

    /// Every claim, in the order the demo makes them.
    var claims: [Claim] {
        activityClaims + bannerClaims + campaignClaims + controlGroupClaims + contentBlockClaims + pageClaims + [
            claim(
                "no content recorded an error (every simulated click carried its page's token)",
                statistics.totals.errors == 0,
                "\(statistics.totals.errors) error(s)"
            )
        ]
    }

    // MARK: 1–2. An activity from a URL route

    private var activityClaims: [Claim] {
        let link = "https://shop.example.com/product/p1"
        let activity = activities.first { $0.actionName == "Show Product" }
        let continued = activity.map { activity in
            timeline.filter { $0.source == .continueActivity(type: activity.activityType) }
        }
        return [
            claim(
                "the activity Show Product (p1) publishes carries its route link \(link)",
                activity?.url?.absoluteString == link
                    && activity?.userInfo[ActivitiesPlugin.routeURLUserInfoKey] == link,
                "url \(activity?.url?.absoluteString ?? "none"), "
                    + "user info \(activity?.userInfo[ActivitiesPlugin.routeURLUserInfoKey] ?? "none")"
            ),
            claim(
                "continuing it performs Show Product (p1) through the router, as a continued activity",
                continued?.contains { entry in
                    entry.actionName == "Show Product" && entry.inputDescription.hasPrefix("p1")
                        && entry.outcome == .success
                } == true,
                "continued: "
                    + (continued ?? []).map { "\($0.actionName) (\($0.inputDescription))" }.joined(separator: ", ")
            ),
        ]
    }

    // MARK: 6. The banner

    private var bannerClaims: [Claim] {
        let banner = statistics[.contentAction(id: 201)] ?? ContentFigures()
        let shown = indices(of: ReportEventType.executed.rawValue, content: "201")
        let hidden = indices(of: "dont-show", content: "201")
        let sessionsBetween =
            shown.count == 2
            ? events[shown[0]..<shown[1]].filter { $0.type == ReportEventType.sessionStart.rawValue }.count : -1
        let hiddenSessions = hidden.map { events[$0].sessionID }
        let hiddenInClosingSession =
            shown.first.map { first in hiddenSessions.first == events[first].sessionID } ?? false
        return [
            claim(
                "the banner (201) is shown in sessions 1 and 3",
                banner.impressions == 2,
                "\(banner.impressions) impression(s)"
            ),
            claim("the product click in the banner is recorded", banner.productClicks == 1, "\(banner.productClicks)"),
            claim("the click on its `shop://` link is recorded", banner.clicks == 1, "\(banner.clicks) click(s)"),
            claim("the banner is closed once", banner.closes == 1, "\(banner.closes) close(s)"),
            claim(
                "closed for 2 sessions, counting the one it is closed in: hidden in session 1 after the close and in "
                    + "session 2, back in session 3",
                sessionsBetween == 2 && hidden.count == 2 && hiddenInClosingSession
                    && Set(hiddenSessions).count == 2 && (hidden.last ?? Int.max) < (shown.last ?? Int.min),
                "\(sessionsBetween) session start(s) between its impressions, \(hidden.count) dont-show event(s) "
                    + "in \(Set(hiddenSessions).count) session(s), the first in the closing session: "
                    + "\(hiddenInClosingSession)"
            ),
            claim(
                "the banner's universal link opens Show Product (p2) through the router",
                banner.productClicks == 1 && opened("https://shop.example.com/product/p2")
                    && routed("Show Product", input: "p2"),
                routedInputs
            ),
            claim(
                "the banner's shop://product/p3 link opens Show Product (p3) through the router",
                opened("shop://product/p3", clickedIn: "201") && routed("Show Product", input: "p3"),
                routedInputs
            ),
            claim("the banner has no errors", banner.errors == 0, "\(banner.errors) error(s)"),
        ]
    }

    // MARK: Campaigns

    private var campaignClaims: [Claim] {
        let freeShipping = statistics[.campaign(id: "free-shipping")]?.impressions ?? 0
        let completeTheLook = statistics[.campaign(id: "complete-the-look")]?.impressions ?? 0
        let control = events.filter {
            $0.type == CampaignEventType.controlImpression.rawValue
                && $0.properties[ReportEventKey.actionID]?.stringValue == "members-reviews"
        }.count
        let sourceErrors = events.filter { $0.type == CampaignEventType.campaignSourceError.rawValue }.count
        // The per-user control-group part always reads its own embedded rules, whichever source the rest uses.
        let campaignEvents = events.filter {
            $0.properties[ReportEventKey.contentSource] == "campaign"
                && $0.properties[ReportEventKey.actionID]?.stringValue != DemoCampaignControlGroups.campaignID
        }
        let experiences = campaignEvents.map { $0.properties[CampaignEventKey.experienceID]?.stringValue }
        let heldFirst =
            (timelineIndex("Hold Campaign", input: "free-shipping") ?? Int.max)
            < (timelineIndex("Deliver Campaign", input: "free-shipping") ?? Int.min)
        return [
            claim(
                "\"Free shipping\", earned before the screen is visible, is held, then delivered on appear",
                heldFirst && freeShipping == 1,
                "held before delivered: \(heldFirst), \(freeShipping) impression(s)"
            ),
            claim(
                "\"Complete the look\", earned by adding to the cart, is delivered while the screen is visible",
                completeTheLook == 1 && timelineIndex("Hold Campaign", input: "complete-the-look") == nil
                    && events.contains { $0.type == CampaignEventType.addToCart.rawValue },
                "\(completeTheLook) impression(s)"
            ),
            claim(
                "the control-group campaign is not shown, but its impression is tracked",
                control == 1 && (statistics[.campaign(id: "members-reviews")]?.impressions ?? 0) == 0,
                "\(control) control-group impression(s)"
            ),
            claim("every campaign request was answered", sourceErrors == 0, "\(sourceErrors) campaign source error(s)"),
        ] + campaignSourceClaims(experiences)
    }

    /// With a campaign server, that what was shown is the server's: the embedded rules assign no experience, the
    /// server one to every campaign. Without one, that nothing carries an experience.
    private func campaignSourceClaims(_ experiences: [String?]) -> [Claim] {
        let found = experiences.map { $0 ?? "none" }.joined(separator: ", ")
        guard campaignServer != nil else {
            return [claim("the campaigns are the embedded file's", experiences.allSatisfy { $0 == nil }, found)]
        }
        return [
            claim(
                "every campaign shown is the server's, in the experience it assigned",
                !experiences.isEmpty && experiences.allSatisfy { $0 != nil },
                "experiences: \(found)"
            )
        ]
    }

    // MARK: Control groups per user

    private var controlGroupClaims: [Claim] {
        typealias Demo = DemoCampaignControlGroups
        // Each visitor's impressions of the size guide, in store order: "executed" or "control_impression".
        var impressions: [String: [String]] = [:]
        for event in events where event.properties[ReportEventKey.actionID]?.stringValue == Demo.campaignID {
            guard
                event.type == ReportEventType.executed.rawValue
                    || event.type == CampaignEventType.controlImpression.rawValue
            else { continue }
            impressions[event.anonymousID, default: []].append(event.type)
        }
        let held = Demo.visitors.filter { impressions[$0]?.first == CampaignEventType.controlImpression.rawValue }
        let launches = Demo.visitors.map { impressions[$0]?.count ?? 0 }
        let expectedLaunches = Demo.visitors.map { Demo.relaunched.contains($0) ? 2 : 1 }
        let sameGroup = Demo.relaunched.allSatisfy { Set(impressions[$0] ?? []).count == 1 }
        let lift = CampaignStatistics.lift(campaignID: Demo.campaignID, goal: .purchase, events: events)
        return [
            claim(
                "every visitor's launch tracks one impression of \"Size guide\", shown or in the control group",
                launches == expectedLaunches,
                "impressions per visitor \(launches), expected \(expectedLaunches)"
            ),
            claim(
                "the control group is per visitor: 2 of 8 (alan, ken) are held back at 25%, the others see the tip",
                held == ["visitor-alan", "visitor-ken"],
                "held back: \(held)"
            ),
            claim(
                "a relaunched visitor lands in the same group again",
                sameGroup,
                "relaunched visitors' impressions: \(Demo.relaunched.map { impressions[$0] ?? [] })"
            ),
            claim(
                "lift counts 6 test and 2 control visitors",
                lift.testVisitors == 6 && lift.controlVisitors == 2,
                "\(lift.testVisitors) test, \(lift.controlVisitors) control"
            ),
        ]
    }

    // MARK: 7. Content blocks

    private var contentBlockClaims: [Claim] {
        let welcome = statistics[.contentBlock(id: "welcome")] ?? ContentFigures()
        let sale = statistics[.contentBlock(id: "spring-sale")] ?? ContentFigures()
        let carousel = ["shoes", "jackets", "bags"].map { statistics[.contentBlock(id: $0)]?.impressions ?? 0 }
        let welcomeClosed = indices(of: ReportEventType.close.rawValue, content: "welcome").first
        let saleShown = indices(of: ReportEventType.executed.rawValue, content: "spring-sale").first
        return [
            claim(
                "home shows the welcome block, its link is clicked and it is closed",
                welcome.impressions == 1 && welcome.clicks == 1 && welcome.closes == 1,
                "\(welcome.impressions) impression(s), \(welcome.clicks) click(s), \(welcome.closes) close(s)"
            ),
            claim(
                "its shop://product/p1 link opens Show Product (p1) through the router",
                opened("shop://product/p1", clickedIn: "welcome") && routed("Show Product", input: "p1"),
                routedInputs
            ),
            claim(
                "the next block, Spring sale, takes the closed welcome block's place",
                (welcomeClosed ?? Int.max) < (saleShown ?? Int.min),
                "close of welcome at event \(welcomeClosed.map(String.init) ?? "-"), "
                    + "show of spring-sale at \(saleShown.map(String.init) ?? "-")"
            ),
            claim(
                "Spring sale is shown, its link is clicked and it is closed",
                sale.impressions == 1 && sale.clicks == 1 && sale.closes == 1,
                "\(sale.impressions) impression(s), \(sale.clicks) click(s), \(sale.closes) close(s)"
            ),
            claim(
                "its universal link opens Show Product (p4) through the router",
                opened("https://shop.example.com/product/p4", clickedIn: "spring-sale")
                    && routed("Show Product", input: "p4"),
                routedInputs
            ),
            claim(
                "the carousel shows 4 blocks in rotation",
                carousel.reduce(0, +) == 4 && carousel.allSatisfy { $0 >= 1 },
                "shoes, jackets, bags: \(carousel)"
            ),
        ]
    }

    // MARK: The statistics page

    private var pageClaims: [Claim] {
        let contents = pageReport?.statistics.contents ?? []
        let matches =
            contents.map { "\($0.content.source) \($0.content.id)" }
            == statistics.contents.map { "\($0.content.source) \($0.content.id)" }
            && zip(contents, statistics.contents).allSatisfy { $0.figures == $1.figures }
        let lift = pageReport?.campaigns.first { $0.campaignID == "members-reviews" }
        return [
            claim(
                "the statistics page was written, self-contained (no network), with the store's figures",
                page != nil && matches && (page ?? "").contains("default-src 'none'"),
                page == nil
                    ? "no page" : "\(contents.count) contents in the page, \(statistics.contents.count) in the store"
            ),
            claim(
                "the page's figures carry 95% intervals and a series per content",
                !contents.isEmpty
                    && contents.allSatisfy { $0.figures.impressions == 0 || $0.figures.clickThroughRateInterval != nil }
                    && contents.contains { !$0.series.isEmpty },
                "\(contents.filter { !$0.series.isEmpty }.count) content series"
            ),
            claim(
                "the control-group campaign's lift is on the page, with a verdict",
                lift.map { $0.controlVisitors == 1 && $0.verdict == .notDistinguishableYet } ?? false,
                lift.map { "\($0)" } ?? "no lift for members-reviews"
            ),
        ]
    }

    /// The JSON the page's script draws, decoded.
    private static func embeddedReport(in page: String) -> StatisticsReport? {
        let opening = "<script type=\"application/json\" id=\"statistics-data\">"
        guard let start = page.range(of: opening),
            let end = page.range(of: "</script>", range: start.upperBound..<page.endIndex)
        else { return nil }
        return try? JSONDecoder().decode(
            StatisticsReport.self,
            from: Data(page[start.upperBound..<end.lowerBound].utf8)
        )
    }

    // MARK: Reading the record

    private func claim(_ text: String, _ holds: Bool, _ found: String) -> Claim {
        Claim(text: text, holds: holds, found: found)
    }

    /// The positions of the events of `type` about the content `id`, in store order.
    private func indices(of type: String, content id: String) -> [Int] {
        events.indices.filter { index in
            events[index].type == type && events[index].properties[ReportEventKey.actionID]?.stringValue == id
        }
    }

    /// Whether the store records a click on `url` in the content `id`, and `url` opened by the router with its
    /// action performed. (The two are recorded on their own paths, so either may be stored first; each URL the
    /// demo's content links to is opened nowhere else. A product click records the product, not the link.)
    private func opened(_ url: String, clickedIn id: String) -> Bool {
        let clicked = events.contains { event in
            event.properties[ReportEventKey.actionID]?.stringValue == id
                && event.properties[ReportEventKey.href]?.stringValue == url
        }
        return clicked && opened(url)
    }

    /// Whether the store records `url` opened by the router with its action performed.
    private func opened(_ url: String) -> Bool {
        events.contains { event in
            event.type == ReportEventType.urlOpened.rawValue
                && event.properties[ReportEventKey.url]?.stringValue == url
                && event.properties[ReportEventKey.result]?.stringValue == "performed"
        }
    }

    /// Whether the debug report's timeline has `action` performed from an opened URL with `input`, successfully.
    private func routed(_ action: String, input: String) -> Bool {
        timeline.contains { entry in
            entry.actionName == action && entry.source == .openURL && entry.inputDescription.hasPrefix(input)
                && (entry.outcome == .success || entry.outcome == .successWithFeatureTermination)
        }
    }

    private var routedInputs: String {
        let inputs = timeline.filter { $0.source == .openURL }.map { "\($0.actionName) (\($0.inputDescription))" }
        return "routed: " + (inputs.isEmpty ? "nothing" : inputs.joined(separator: ", "))
    }

    private func timelineIndex(_ action: String, input: String) -> Int? {
        timeline.firstIndex { $0.actionName == action && $0.inputDescription.contains(input) }
    }

    /// Prints each claim with ✓ or ✗ and what was found; returns the claims that do not hold.
    func report() -> [Claim] {
        print("\nChecking what the demo claims, from the event store and the debug report:")
        for claim in claims {
            print("   \(claim.holds ? "✓" : "✗") \(claim.text)\(claim.holds ? "" : " — found \(claim.found)")")
        }
        return claims.filter { !$0.holds }
    }
}
