import ActuateReporting
import Foundation
import Testing

@testable import ActuatePersonalization

@Suite("Campaign lift: intervals, verdict, visitors needed, series and JSON")
struct CampaignLiftTests {
    /// 2026-01-01T00:00:00Z.
    private static let newYear = Date(timeIntervalSince1970: 1_767_225_600)

    /// `test` and `control` visitors, of whom the first `testBuyers` and `controlBuyers` buy an hour later.
    private static func experiment(test: Int, testBuyers: Int, control: Int, controlBuyers: Int) -> [ReportEvent] {
        var events: [ReportEvent] = []
        for (group, count, buyers) in [("t", test, testBuyers), ("c", control, controlBuyers)] {
            for index in 0..<count {
                let visitor = "\(group)-\(index)"
                events.append(
                    CampaignStatisticsTests.impression(visitor: visitor, control: group == "c", at: newYear)
                )
                if index < buyers {
                    events.append(
                        CampaignStatisticsTests.event(
                            "purchase",
                            visitor: visitor,
                            at: newYear.addingTimeInterval(3_600)
                        )
                    )
                }
            }
        }
        return events
    }

    @Test("30 of 100 against 20 of 100 is lift +50% but not distinguishable yet, and says what it would take")
    func issueExample() throws {
        let events = Self.experiment(test: 100, testBuyers: 30, control: 100, controlBuyers: 20)
        let lift = CampaignStatistics.lift(campaignID: "summer", goal: .purchase, events: events)
        #expect(abs((lift.lift ?? 0) - 0.5) < 1e-12)
        #expect(lift.verdict == .notDistinguishableYet)
        let interval = try #require(lift.liftInterval)
        #expect(interval.contains(0), "the 95% interval of the lift holds zero: \(interval)")
        #expect(lift.testRateInterval == RateInterval.wilson(successes: 30, trials: 100))
        #expect(lift.controlRateInterval == RateInterval.wilson(successes: 20, trials: 100))
        #expect(lift.visitorsPerGroupNeeded == 294)
        #expect(
            lift.description
                == "summer, purchase: test 30/100 (30.0%, 95% CI 21.9%–39.6%), control 20/100 (20.0%, 95% CI "
                + "13.3%–28.9%), lift +50.0% (95% CI −8.4% to +145.6%): not distinguishable yet; 294 visitors per "
                + "group would detect it (194 more)"
        )
    }

    @Test("the same rates on 1,000 visitors per group are better")
    func betterWithMoreVisitors() {
        let events = Self.experiment(test: 1_000, testBuyers: 300, control: 1_000, controlBuyers: 200)
        let lift = CampaignStatistics.lift(campaignID: "summer", goal: .purchase, events: events)
        #expect(lift.verdict == .better)
        #expect(lift.description.hasSuffix(": better"))
    }

    @Test("JSON carries rates, intervals, verdict, visitors needed and the series, and reads back")
    func json() throws {
        let events = Self.experiment(test: 100, testBuyers: 30, control: 100, controlBuyers: 20)
        let lift = CampaignStatistics.lift(campaignID: "summer", goal: .purchase, events: events)
        let data = try JSONEncoder().encode(lift)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["verdict"] as? String == "notDistinguishableYet")
        #expect(object["visitorsPerGroupNeeded"] as? Int == 294)
        #expect(object["additionalVisitorsPerGroupNeeded"] as? Int == 194)
        // JSONSerialization may read a double one unit in the last place off; JSONDecoder reads it exactly (below).
        #expect(abs((object["lift"] as? Double ?? 0) - (lift.lift ?? 1)) < 1e-12)
        let interval = try #require(object["liftInterval"] as? [String: Double])
        let expected = try #require(lift.liftInterval)
        #expect(abs((interval["lower"] ?? 9) - expected.lower) < 1e-12)
        #expect(abs((interval["upper"] ?? 9) - expected.upper) < 1e-12)
        #expect(object["testRateInterval"] is [String: Double])
        #expect((object["series"] as? [Any])?.count == 1)
        #expect(try JSONDecoder().decode(CampaignLift.self, from: data) == lift)
    }

    @Test("the series counts visitors on their first impression's UTC day and conversions on their goal's day")
    func series() {
        let late = Self.newYear.addingTimeInterval(86_400 - 60)  // 2026-01-01T23:59:00Z
        let events = [
            CampaignStatisticsTests.impression(visitor: "a", control: false, at: late),
            CampaignStatisticsTests.impression(visitor: "b", control: true, at: late),
            CampaignStatisticsTests.event("purchase", visitor: "a", at: late.addingTimeInterval(120)),
            CampaignStatisticsTests.event("purchase", visitor: "a", at: late.addingTimeInterval(86_400)),
            CampaignStatisticsTests.impression(visitor: "a", control: false, at: late.addingTimeInterval(86_400)),
        ]
        let lift = CampaignStatistics.lift(campaignID: "summer", goal: .purchase, events: events)
        #expect(lift.series.map(\.start) == ["2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"])
        #expect(lift.series.map(\.testVisitors) == [1, 0])
        #expect(lift.series.map(\.controlVisitors) == [1, 0])
        #expect(lift.series.map(\.testConversions) == [0, 1], "a converts once, on the day of the first purchase")
        #expect(lift.series.map(\.controlConversions) == [0, 0])
    }
}
