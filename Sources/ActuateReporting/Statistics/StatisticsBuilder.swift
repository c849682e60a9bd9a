import Foundation

/// Builds ``ReportingStatistics`` from events handed over one at a time, from any number of sources, in memory
/// that grows with contents, sessions and purchases, never with the number of events.
package struct StatisticsBuilder {
    private var accumulator: StatisticsAccumulator
    private var hooks = HookStatisticsAccumulator()
    /// The texts of the ``ReportEvent`` values added.
    private var texts = StatisticsTexts()
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

    /// Counts one event, its texts numbered in the builder's own ``StatisticsTexts``.
    ///
    /// A builder counts either events of this kind, finished by ``finish(deadLetterCount:)``, or
    /// ``StatisticsEvent`` values read with one ``StatisticsTexts``, finished by ``finish(deadLetterCount:texts:)``.
    /// - Parameter event: The event.
    package mutating func add(_ event: ReportEvent) {
        add(StatisticsEvent(event, texts: &texts))
    }

    /// Counts one event, read with the ``StatisticsTexts`` that ``finish(deadLetterCount:texts:)`` will be given.
    /// - Parameter event: The event.
    package mutating func add(_ event: StatisticsEvent) {
        accumulator.add(event)
        hooks.add(event)
    }

    /// The statistics of every ``ReportEvent`` added.
    /// - Parameter deadLetterCount: The dead letters of the sources, for display.
    /// - Returns: The statistics.
    package func finish(deadLetterCount: Int) -> ReportingStatistics {
        finish(deadLetterCount: deadLetterCount, texts: texts)
    }

    /// The statistics of every ``StatisticsEvent`` added.
    /// - Parameters:
    ///   - deadLetterCount: The dead letters of the sources, for display.
    ///   - texts: Where the events' texts were numbered.
    /// - Returns: The statistics.
    package func finish(deadLetterCount: Int, texts: StatisticsTexts) -> ReportingStatistics {
        ReportingStatistics(
            accumulator,
            hooks,
            texts: texts,
            deadLetterCount: deadLetterCount,
            attributionWindow: attributionWindow,
            seriesInterval: seriesInterval
        )
    }
}
