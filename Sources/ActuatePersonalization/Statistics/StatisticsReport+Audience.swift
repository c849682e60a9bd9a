import ActuateReporting
import Foundation

extension StatisticsReport {
    /// Computes a report over many sources at once (store directories, collected batch files, NDJSON files), each
    /// event counted once however many sources repeat it, in one streaming pass.
    /// - Parameters:
    ///   - audience: The sources.
    ///   - goal: The goal campaign lift is measured against; purchases by default.
    ///   - seriesInterval: Days or hours, for the series.
    /// - Returns: The report, and what reading the sources found (repeats, sources that could not be read).
    package static func audience(
        _ audience: AudienceEvents,
        goal: CampaignGoal = .purchase,
        seriesInterval: SeriesInterval = .day
    ) -> (report: StatisticsReport, summary: AudienceEvents.Summary) {
        // Every event is read as a `StatisticsEvent` (batch files straight from their bytes), its texts numbered in
        // `texts`, which both accumulators then read their figures' names from.
        var texts = StatisticsTexts()
        var builder = StatisticsBuilder(seriesInterval: seriesInterval)
        var lifts = CampaignLiftAccumulator(goal: goal, seriesInterval: seriesInterval, texts: &texts)
        let summary = audience.forEachUniqueEvent(texts: &texts) { event in
            builder.add(event)
            lifts.add(event)
        }
        let report = StatisticsReport(
            statistics: builder.finish(deadLetterCount: summary.deadLetterCount, texts: texts),
            campaigns: lifts.finish(texts: texts)
        )
        return (report, summary)
    }
}
