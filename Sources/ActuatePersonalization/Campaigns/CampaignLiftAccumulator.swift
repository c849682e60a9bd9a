import ActuateReporting
import Foundation

/// Gathers campaign impressions and goal events one at a time, then computes each campaign's lift and series.
///
/// Memory grows with the campaigns' visitors and their goal events, not with other events, so it can ride along
/// the one streaming pass `ReportingStatistics` makes over a store.
package struct CampaignLiftAccumulator {
    private let goal: CampaignGoal
    private let seriesInterval: SeriesInterval
    private var firstImpressions: [String: [String: (date: Date, isControl: Bool)]] = [:]
    private var goalDates: [String: [Date]] = [:]

    package init(goal: CampaignGoal, seriesInterval: SeriesInterval = .day) {
        self.goal = goal
        self.seriesInterval = seriesInterval
    }

    package mutating func add(_ event: ReportEvent) {
        if goal.isReached(by: event) {
            goalDates[event.anonymousID, default: []].append(event.timestamp)
        }
        guard let (campaignID, isControl) = Self.impression(in: event) else { return }
        if let earlier = firstImpressions[campaignID]?[event.anonymousID], earlier.date <= event.timestamp {
            return
        }
        firstImpressions[campaignID, default: [:]][event.anonymousID] = (event.timestamp, isControl)
    }

    /// The lift of every campaign with an impression, sorted by campaign id.
    package func finish() -> [CampaignLift] {
        firstImpressions.keys.sorted().map { campaignID in
            var lift = CampaignLift(
                campaignID: campaignID,
                goal: goal,
                testVisitors: 0,
                testConversions: 0,
                controlVisitors: 0,
                controlConversions: 0
            )
            var series = SeriesCounts(empty: CampaignSeriesPoint(start: ""))
            for (visitor, first) in firstImpressions[campaignID] ?? [:] {
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

    /// The campaign id and group of an impression event, or nil for other events.
    private static func impression(in event: ReportEvent) -> (String, Bool)? {
        // The type first: it rules out most events without a lookup in their properties.
        let isControl: Bool
        switch event.type {
        case ReportEventType.executed.rawValue: isControl = false
        case CampaignEventType.controlImpression.rawValue: isControl = true
        default: return nil
        }
        guard event.properties[ReportEventKey.contentSource] == .string(ContentSource.campaign.rawValue),
            let campaignID = event.properties[ReportEventKey.actionID]?.stringValue
        else { return nil }
        return (campaignID, isControl)
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
