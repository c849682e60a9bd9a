import Foundation
import Testing

@testable import ActuatePersonalization
@testable import ActuateReporting
@testable import ActuateTesting

/// Issue 22, point 8 (Evergage): "Control groups per user for local campaigns: a `controlGroupPercent` on a
/// campaign entry, assigned with the same stable, independent bucketing as conditions (not a whole entry that is
/// control for everyone)."
@Suite("Campaign control groups per user")
struct CampaignControlGroupTests {
    private static let visitors = (0..<40_000).map { "visitor-\($0)" }

    /// A rule for `campaignId`, earned by the action `Open Home`, holding back `percent` of users.
    private static func rule(_ campaignID: String, percent: Double) -> CampaignRule {
        CampaignRule(
            campaign: .test(campaignID),
            trigger: CampaignTriggerRule(event: .action("Open Home")),
            controlGroupPercent: percent
        )
    }

    /// The ids of the campaigns `visitor` is held back from.
    private static func heldBack(_ rules: CampaignRules, visitor: String) -> Set<String> {
        let request = CampaignRequest(
            trigger: .action("Open Home"),
            contextName: "global",
            identity: StoredIdentity(anonymousID: visitor)
        )
        return Set(rules.campaigns(for: request).filter(\.isControlGroup).map(\.campaignID))
    }

    /// Whether `count` of `trials` is within five binomial standard deviations of `probability`.
    private static func isClose(_ count: Int, of trials: Int, to probability: Double) -> Bool {
        let expected = Double(trials) * probability
        let deviation = (Double(trials) * probability * (1 - probability)).squareRoot()
        return abs(Double(count) - expected) <= 5 * deviation
    }

    @Test(
        "each campaign holds back its percentage of users, and two campaigns' groups are independent",
        arguments: [("summer", "summer2", 10.0), ("c1", "c2", 30.0), ("7", "8", 50.0), ("a", "b", 12.5)]
    )
    func ratesAndIndependence(first: String, second: String, percent: Double) {
        let rules = CampaignRules(rules: [Self.rule(first, percent: percent), Self.rule(second, percent: percent)])
        var counts = (first: 0, second: 0, both: 0)
        for visitor in Self.visitors {
            let held = Self.heldBack(rules, visitor: visitor)
            if held.contains(first) { counts.first += 1 }
            if held.contains(second) { counts.second += 1 }
            if held.contains(first) && held.contains(second) { counts.both += 1 }
        }
        let rate = percent / 100
        let trials = Self.visitors.count
        #expect(Self.isClose(counts.first, of: trials, to: rate), "\(first): \(counts.first) of \(trials)")
        #expect(Self.isClose(counts.second, of: trials, to: rate), "\(second): \(counts.second) of \(trials)")
        #expect(
            Self.isClose(counts.both, of: trials, to: rate * rate),
            "in both groups: \(counts.both) of \(trials); independent groups share \(rate * rate * 100)%"
        )
    }

    @Test("a campaign's group is independent of the group of a rules condition with the same id")
    func independentOfConditions() {
        var both = 0
        var campaign = 0
        for visitor in Self.visitors {
            let inCampaign = ControlGroup.contains(visitorID: visitor, campaignID: "7", percent: 20)
            let inCondition = ControlGroup.contains(visitorID: visitor, conditionID: 7, percent: 20)
            if inCampaign { campaign += 1 }
            if inCampaign && inCondition { both += 1 }
        }
        #expect(Self.isClose(campaign, of: Self.visitors.count, to: 0.2))
        #expect(Self.isClose(both, of: Self.visitors.count, to: 0.04), "\(both) in both groups")
    }

    @Test("0 holds no one back and 100 holds everyone back; the default is 0")
    func bounds() {
        let rules = CampaignRules(rules: [Self.rule("none", percent: 0), Self.rule("all", percent: 100)])
        let defaulted = CampaignRule(
            campaign: .test("plain"),
            trigger: CampaignTriggerRule(event: .action("Open Home"))
        )
        #expect(defaulted.controlGroupPercent == 0)
        for visitor in Self.visitors.prefix(2_000) {
            #expect(Self.heldBack(rules, visitor: visitor) == ["all"])
        }
    }

    @Test("a user's group is the same on every launch: pinned buckets, and two sources loaded from one file agree")
    func stableAcrossLaunches() throws {
        // Computed by a separate Python implementation of FNV-1a and fmix64 over `visitor:campaign:<id>`.
        #expect(ControlGroup.bucket(visitorID: "visitor-1", key: ControlGroup.campaignKey("summer")) == 4_349)
        #expect(ControlGroup.bucket(visitorID: "visitor-2", key: ControlGroup.campaignKey("summer")) == 4_084)
        #expect(ControlGroup.bucket(visitorID: "anon-7f3a", key: ControlGroup.campaignKey("c1")) == 3_624)

        let directory = TemporaryDirectory()
        let file = directory.appending("rules.json")
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let json = """
            {"campaigns": [{"campaignId": "summer", "target": "banner", "controlGroupPercent": 42.5,
                            "trigger": {"action": "Open Home"}}]}
            """
        try Data(json.utf8).write(to: file)
        let firstLaunch = try LocalCampaignSource(contentsOf: file)
        let secondLaunch = try LocalCampaignSource(contentsOf: file)
        #expect(firstLaunch.rules.rules.first?.controlGroupPercent == 42.5)
        for visitor in Self.visitors.prefix(2_000) {
            #expect(
                Self.heldBack(firstLaunch.rules, visitor: visitor)
                    == Self.heldBack(secondLaunch.rules, visitor: visitor)
            )
        }
        // At 42.5% the threshold is bucket 4,250: visitor-2 (4,084) is held back, visitor-1 (4,349) is not.
        #expect(Self.heldBack(firstLaunch.rules, visitor: "visitor-2") == ["summer"])
        #expect(Self.heldBack(firstLaunch.rules, visitor: "visitor-1") == [])
    }

    @Test("through a manager: the stored anonymous id picks the group again after a relaunch")
    func managerUsesStoredIdentity() async throws {
        let directory = TemporaryDirectory()
        let source = LocalCampaignSource(rules: CampaignRules(rules: [Self.rule("summer", percent: 50)]))
        var seen: [(visitor: String, isControl: Bool)] = []
        for launch in 0..<2 {
            let harness = ActionTestHarness()
            let reporter = Reporter(
                store: MemoryEventStore(),
                delivery: nil,
                scheduler: harness.scheduler,
                identity: Identity(storage: FileIdentityStorage(directory: directory.url))
            )
            let deliveries = CampaignDeliveries()
            let manager = CampaignManager(
                reporter: reporter,
                source: source,
                scheduler: harness.scheduler,
                configuration: CampaignConfiguration(
                    deliveryQueue: DispatchQueue(label: "control"),
                    session: harness.session
                ),
                directory: directory.appending("campaigns-\(launch)")  // a folder each: no duplicate window between
            )
            manager.globalContext.setCampaignHandler({ deliveries.record("home", $0) }, forTarget: "banner")
            manager.globalContext.trackAction("Open Home")
            await manager.waitUntilSettled()
            let delivered = try #require(deliveries.all.first?.campaign)
            seen.append((reporter.identity.anonymousID, delivered.isControlGroup))
            let expected = ControlGroup.contains(
                visitorID: reporter.identity.anonymousID,
                campaignID: "summer",
                percent: 50
            )
            #expect(delivered.isControlGroup == expected)
        }
        #expect(seen[0].visitor == seen[1].visitor)
        #expect(seen[0].isControl == seen[1].isControl)
    }

    @Test("a held-back user's impression is a control impression, so lift compares the two groups")
    func controlImpressionsFeedLift() async throws {
        let store = MemoryEventStore()
        let source = LocalCampaignSource(rules: CampaignRules(rules: [Self.rule("summer", percent: 42.5)]))
        // visitor-2 falls in the control group at 42.5% and visitor-1 does not (see the pinned buckets above).
        for visitor in ["visitor-1", "visitor-2"] {
            let fixture = CampaignFixture(source: source, store: store, visitor: visitor)
            let global = fixture.manager.globalContext
            global.setCampaignHandler(fixture.handler("home"), forTarget: "banner")
            global.trackAction("Open Home")
            await fixture.settle()
            let campaign = try #require(fixture.deliveries.all.first?.campaign)
            #expect(campaign.isControlGroup == (visitor == "visitor-2"))
            global.trackImpression(campaign)
        }
        let events = try store.fetch(count: 1_000, maxBytes: .max)
        let impressions = events.filter { $0.type == "executed" || $0.type == "control_impression" }
        #expect(
            impressions.map { "\($0.anonymousID) \($0.type)" } == [
                "visitor-1 executed", "visitor-2 control_impression",
            ]
        )
        #expect(impressions.last?.properties[CampaignEventKey.controlGroup] == true)
        let lift = CampaignStatistics.lift(campaignID: "summer", goal: .purchase, events: events)
        #expect(lift.testVisitors == 1)
        #expect(lift.controlVisitors == 1)
    }

    @Test("a request without a visitor holds no one back, except a campaign that is control for everyone")
    func noVisitor() {
        var everyone = Self.rule("everyone", percent: 0)
        everyone.campaign.isControlGroup = true
        let rules = CampaignRules(rules: [Self.rule("summer", percent: 99.99), everyone])
        let request = CampaignRequest(trigger: .action("Open Home"), contextName: "global")
        #expect(rules.campaigns(for: request).map(\.isControlGroup) == [false, true])
    }

    @Test(
        "controlGroupPercent out of range, not a number, or beside isControlGroup: true is refused with its path",
        arguments: [
            ("-1", "expected a number from 0 to 100, found -1"),
            ("100.5", "expected a number from 0 to 100, found 100.5"),
            ("1e300", "expected a number from 0 to 100, found 1e+300"),
            ("\"10\"", "expected a number from 0 to 100, found a string (\"10\")"),
            ("true", "expected a number from 0 to 100, found a Boolean"),
            ("null", "expected a number from 0 to 100, found null"),
        ]
    )
    func invalidPercent(value: String, message: String) {
        let json = """
            {"campaigns": [{"campaignId": "summer", "target": "banner", "controlGroupPercent": \(value),
                            "trigger": {"action": "Open Home"}}]}
            """
        let problems = CampaignRules.validateCampaigns(in: Data(json.utf8)).map(\.description)
        #expect(problems == ["$.campaigns[0].controlGroupPercent: \(message)"])
        #expect(throws: RulesFileError.self) { try CampaignRules(data: Data(json.utf8), name: "rules.json") }
    }

    @Test("a percentage that is not finite is refused, and -0, 0, 12.5 and 100 are taken")
    func finiteAndValid() throws {
        func campaigns(_ percent: Double) -> JSONValue {
            [
                "campaigns": [
                    [
                        "campaignId": "summer", "target": "banner", "controlGroupPercent": .number(percent),
                        "trigger": ["action": "Open Home"],
                    ]
                ]
            ]
        }
        for bad in [Double.infinity, -.infinity, .nan] {
            let problems = CampaignRules.validateCampaigns(in: campaigns(bad))
            #expect(problems.map(\.path) == ["$.campaigns[0].controlGroupPercent"], "\(bad)")
        }
        for good in [-0.0, 0, 12.5, 100] {
            #expect(CampaignRules.validateCampaigns(in: campaigns(good)).isEmpty, "\(good)")
        }
    }

    @Test("isControlGroup: true holds everyone back, so a percentage beside it is refused")
    func contradiction() {
        let json = """
            {"campaigns": [{"campaignId": "summer", "target": "banner", "isControlGroup": true,
                            "controlGroupPercent": 10, "trigger": {"action": "Open Home"}}]}
            """
        let problems = CampaignRules.validateCampaigns(in: Data(json.utf8)).map(\.description)
        #expect(
            problems == [
                "$.campaigns[0].controlGroupPercent: not allowed with \"isControlGroup\": true, which holds every "
                    + "user back; keep one of the two"
            ]
        )
    }
}
