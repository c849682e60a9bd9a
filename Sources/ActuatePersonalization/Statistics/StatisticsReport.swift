import ActuateReporting
import Foundation

/// Everything `actuate stats` reports about an event store: the content and action figures of
/// `ReportingStatistics` and the lift of every campaign against its control group, computed in one streaming pass.
///
/// It encodes as the statistics' own JSON object with one more field, `campaigns` (every field is described in
/// <doc:StatisticsJSON>), and ``StatisticsPage`` draws it as an HTML page.
///
/// <!-- readme: package-only -->
/// ```swift
/// let report = try StatisticsReport(fileStoreDirectory: eventsDirectory)
/// try StatisticsPage(report: report).html().write(to: pageURL, atomically: true, encoding: .utf8)
/// ```
package struct StatisticsReport: Sendable, Hashable, Codable {
    /// The content, action and arrival figures, with intervals and series.
    package var statistics: ReportingStatistics
    /// The lift of every campaign with an impression, sorted by campaign id.
    package var campaigns: [CampaignLift]

    /// Creates a report from figures computed elsewhere.
    /// - Parameters:
    ///   - statistics: The content and action figures.
    ///   - campaigns: The campaigns' lifts.
    package init(statistics: ReportingStatistics, campaigns: [CampaignLift]) {
        self.statistics = statistics
        self.campaigns = campaigns
    }

    /// Computes a report from the `FileEventStore` in `directory`, in one pass that holds one page of events at a
    /// time, without changing the directory.
    /// - Parameters:
    ///   - directory: A `FileEventStore` directory.
    ///   - goal: The goal campaign lift is measured against; purchases by default.
    ///   - seriesInterval: Days or hours, for the series.
    /// - Throws: `ReportingError.storeFailed` when the directory cannot be read.
    package init(
        fileStoreDirectory directory: URL,
        goal: CampaignGoal = .purchase,
        seriesInterval: SeriesInterval = .day
    ) throws(ReportingError) {
        var skipped: [String] = []
        try self.init(
            fileStoreDirectory: directory,
            pageSize: ReportingStatistics.defaultPageSize,
            goal: goal,
            seriesInterval: seriesInterval,
            skippedFiles: &skipped
        )
    }

    /// Computes a report as the public initializer does, `pageSize` events at a time, listing the journal names
    /// left out because they are not regular files.
    package init(
        fileStoreDirectory directory: URL,
        pageSize: Int,
        goal: CampaignGoal,
        seriesInterval: SeriesInterval,
        skippedFiles: inout [String]
    ) throws(ReportingError) {
        var lifts = CampaignLiftAccumulator(goal: goal, seriesInterval: seriesInterval)
        statistics = try ReportingStatistics(
            fileStoreDirectory: directory,
            pageSize: pageSize,
            attributionWindow: ReportingStatistics.defaultAttributionWindow,
            seriesInterval: seriesInterval,
            skippedFiles: &skippedFiles,
            alsoReading: { lifts.add($0) }
        )
        campaigns = lifts.finish()
    }

    /// Computes a report from everything pending in a store, in one pass, without removing anything.
    /// - Parameters:
    ///   - store: The store.
    ///   - goal: The goal campaign lift is measured against; purchases by default.
    ///   - seriesInterval: Days or hours, for the series.
    /// - Throws: `ReportingError.storeFailed` when the store cannot be read.
    package init(
        store: any EventStore,
        goal: CampaignGoal = .purchase,
        seriesInterval: SeriesInterval = .day
    ) throws(ReportingError) {
        var lifts = CampaignLiftAccumulator(goal: goal, seriesInterval: seriesInterval)
        statistics = try ReportingStatistics(
            store: store,
            pageSize: ReportingStatistics.defaultPageSize,
            attributionWindow: ReportingStatistics.defaultAttributionWindow,
            seriesInterval: seriesInterval,
            alsoReading: { lifts.add($0) }
        )
        campaigns = lifts.finish()
    }

    private enum CodingKeys: String, CodingKey {
        case campaigns
    }

    /// Decodes the statistics' fields and `campaigns` from one object.
    /// - Parameter decoder: The decoder.
    /// - Throws: A decoding error.
    package init(from decoder: any Decoder) throws {
        statistics = try ReportingStatistics(from: decoder)
        campaigns =
            try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent([CampaignLift].self, forKey: .campaigns)
            ?? []
    }

    /// Encodes the statistics' fields and `campaigns` into one object.
    /// - Parameter encoder: The encoder.
    /// - Throws: An encoding error.
    package func encode(to encoder: any Encoder) throws {
        try statistics.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(campaigns, forKey: .campaigns)
    }
}
