import ActuateReporting
import Foundation

/// Gathers campaign impressions and goal events one at a time, then computes each campaign's lift and series.
///
/// Memory grows with the campaigns' visitors and their goal events, not with other events, so it can ride along
/// the one streaming pass `ReportingStatistics` makes over a store. Visitors are told apart by a 64-bit hash of their
/// anonymous id (``StatisticsEvent/anonymous``): two of n visitors share one with probability about n² / 2⁶⁵.
package struct CampaignLiftAccumulator {
    private let goal: CampaignGoal
    private let seriesInterval: SeriesInterval
    /// The texts of the ``ReportEvent`` values added; those of ``StatisticsEvent`` values are the caller's.
    private var texts = StatisticsTexts()
    /// The texts of the event types this accumulator looks for.
    private let controlImpressionType: UInt32
    private let campaignSource: UInt32
    private let goalType: UInt32
    /// The name a user action must have to reach the goal, for a goal of that kind.
    private let goalName: String?
    /// The first impression of each visitor, by campaign (the text of its id) and visitor.
    private var firstImpressions: [UInt32: [UInt64: (date: Date, isControl: Bool)]] = [:]
    private var goalDates: [UInt64: [Date]] = [:]

    /// Creates an accumulator for ``ReportEvent`` values, finished by ``finish()``.
    package init(goal: CampaignGoal, seriesInterval: SeriesInterval = .day) {
        var texts = StatisticsTexts()
        self.init(goal: goal, seriesInterval: seriesInterval, texts: &texts)
        self.texts = texts
    }

    /// Creates an accumulator for ``StatisticsEvent`` values read with `texts`, finished by ``finish(texts:)``.
    package init(goal: CampaignGoal, seriesInterval: SeriesInterval = .day, texts: inout StatisticsTexts) {
        self.goal = goal
        self.seriesInterval = seriesInterval
        controlImpressionType = texts.number(of: CampaignEventType.controlImpression.rawValue)
        campaignSource = texts.number(of: ContentSource.campaign.rawValue)
        switch goal {
        case .action(let name):
            goalType = texts.number(of: CampaignEventType.userAction.rawValue)
            goalName = name
        case .purchase:
            goalType = StatisticsTexts.purchase
            goalName = nil
        case .eventType(let type):
            goalType = texts.number(of: type.rawValue)
            goalName = nil
        }
    }

    /// Counts one event, its texts numbered in the accumulator's own ``StatisticsTexts``.
    package mutating func add(_ event: ReportEvent) {
        add(StatisticsEvent(event, texts: &texts))
    }

    /// Counts one event, read with the texts given to ``init(goal:seriesInterval:texts:)``.
    package mutating func add(_ event: StatisticsEvent) {
        if event.type == goalType, goalName == nil || event.name == goalName {
            goalDates[event.anonymous, default: []].append(event.timestamp)
        }
        // The type first: it rules out most events without looking further.
        let isControl: Bool
        switch event.type {
        case StatisticsTexts.executed: isControl = false
        case controlImpressionType: isControl = true
        default: return
        }
        guard event.contentSource == campaignSource, event.contentID != 0 else { return }
        if let earlier = firstImpressions[event.contentID]?[event.anonymous], earlier.date <= event.timestamp {
            return
        }
        firstImpressions[event.contentID, default: [:]][event.anonymous] = (event.timestamp, isControl)
    }

    /// The lift of every campaign with an impression of the ``ReportEvent`` values added, sorted by campaign id.
    package func finish() -> [CampaignLift] {
        finish(texts: texts)
    }

    /// The lift of every campaign with an impression of the ``StatisticsEvent`` values added, sorted by campaign id.
    /// - Parameter texts: Where the events' texts were numbered.
    package func finish(texts: StatisticsTexts) -> [CampaignLift] {
        let campaigns = firstImpressions.keys.map { (id: texts.text($0) ?? "", number: $0) }
        return campaigns.sorted { $0.id < $1.id }.map { campaignID, number in
            var lift = CampaignLift(
                campaignID: campaignID,
                goal: goal,
                testVisitors: 0,
                testConversions: 0,
                controlVisitors: 0,
                controlConversions: 0
            )
            var series = SeriesCounts(empty: CampaignSeriesPoint(start: ""))
            for (visitor, first) in firstImpressions[number] ?? [:] {
                let conversion = goalDates[visitor]?.filter { $0 >= first.date }.min()
                if first.isControl {
                    lift.controlVisitors += 1
                    series.update(at: first.date, in: seriesInterval) { $0.controlVisitors += 1 }
                } else {
                    lift.testVisitors += 1
                    series.update(at: first.date, in: seriesInterval) { $0.testVisitors += 1 }
                }
                guard let conversion else { continue }
                if first.isControl {
                    lift.controlConversions += 1
                    series.update(at: conversion, in: seriesInterval) { $0.controlConversions += 1 }
                } else {
                    lift.testConversions += 1
                    series.update(at: conversion, in: seriesInterval) { $0.testConversions += 1 }
                }
            }
            lift.series = series.sorted.map { index, counts in
                var point = counts
                point.start = seriesInterval.start(ofIndex: index)
                return point
            }
            return lift
        }
    }
}

/// One point of a campaign's time series: who entered each group, and who converted, in one day (or hour).
package struct CampaignSeriesPoint: Sendable, Hashable, Codable {
    /// The start of the day or hour, ISO 8601 in UTC, for example `2026-11-25T00:00:00Z`.
    package var start: String
    /// Visitors whose first impression (shown) fell in the interval.
    package var testVisitors = 0
    /// Visitors whose first impression (control) fell in the interval.
    package var controlVisitors = 0
    /// Test visitors whose first goal after their first impression fell in the interval.
    package var testConversions = 0
    /// Control visitors whose first goal after their first impression fell in the interval.
    package var controlConversions = 0

    /// Creates an empty point.
    /// - Parameter start: The start of its interval, ISO 8601 in UTC.
    init(start: String) {
        self.start = start
    }
}
