import Foundation

/// Builds ``ReportingStatistics`` from events handed over one at a time, from any number of sources, in memory
/// that grows with contents, sessions and purchases, never with the number of events.
package struct StatisticsBuilder {
    private var accumulator: StatisticsAccumulator
    private var hooks = HookStatisticsAccumulator()
    private let attributionWindow: Duration
    private let seriesInterval: SeriesInterval

    /// Creates an empty builder.
    /// - Parameters:
    ///   - attributionWindow: How long after a product click a purchase of that product is credited to it.
    ///   - seriesInterval: Days or hours, for the series.
    package init(
        attributionWindow: Duration = ReportingStatistics.defaultAttributionWindow,
        seriesInterval: SeriesInterval = .day
    ) {
        accumulator = StatisticsAccumulator(
            attributionWindow: attributionWindow.seconds,
            seriesInterval: seriesInterval
        )
        self.attributionWindow = attributionWindow
        self.seriesInterval = seriesInterval
    }

    /// Counts one event.
    /// - Parameter event: The event.
    package mutating func add(_ event: ReportEvent) {
        accumulator.add(event)
        hooks.add(event)
    }

    /// The statistics of every event added.
    /// - Parameter deadLetterCount: The dead letters of the sources, for display.
    /// - Returns: The statistics.
    package func finish(deadLetterCount: Int) -> ReportingStatistics {
        ReportingStatistics(
            accumulator,
            hooks,
            deadLetterCount: deadLetterCount,
            attributionWindow: attributionWindow,
            seriesInterval: seriesInterval
        )
    }
}
