/// The figures for one piece of content, or for all content together.
///
/// Rates are nil when their denominator is zero (no impressions, or no session with an impression), so
/// "not measurable yet" is never shown as 0%. Every rate carries Wilson's 95% score interval
/// (`RateInterval/wilson(successes:trials:)`), so a block shown 4 times does not read as an exact percentage.
public struct ContentFigures: Sendable, Hashable, Codable {
    /// `executed` events: times the content was shown.
    public var impressions = 0
    /// `target` events: clicks on the content's main target.
    public var clicks = 0
    /// `close` events.
    public var closes = 0
    /// `product` events: clicks on products inside the content.
    public var productClicks = 0
    /// `article` events: clicks on articles inside the content.
    public var articleClicks = 0
    /// `error` events.
    public var errors = 0
    /// Sessions in which the content was shown at least once.
    package var sessionsWithImpression = 0
    /// Sessions in which the content's main target was clicked at least once.
    package var sessionsWithClick = 0
    /// Purchased products credited to the content's product clicks within the attribution window.
    package var attributedPurchases = 0
    /// ``clicks`` / ``impressions``, or nil without impressions.
    public var clickThroughRate: Double?
    /// ``closes`` / ``impressions``, or nil without impressions.
    public var closeRate: Double?
    /// "CTR of visit": `sessionsWithClick` / `sessionsWithImpression`, or nil without such sessions.
    public var visitClickThroughRate: Double?
    /// Wilson's 95% interval of `clickThroughRate`, or nil without impressions.
    package var clickThroughRateInterval: RateInterval?
    /// Wilson's 95% interval of `closeRate`, or nil without impressions.
    package var closeRateInterval: RateInterval?
    /// Wilson's 95% interval of `visitClickThroughRate`, or nil without such sessions.
    package var visitClickThroughRateInterval: RateInterval?

    /// Creates figures with every count zero.
    package init() {}

    /// Computes the rates from the counts.
    mutating func computeRates() {
        clickThroughRate = ContentFigures.ratio(clicks, impressions)
        closeRate = ContentFigures.ratio(closes, impressions)
        visitClickThroughRate = ContentFigures.ratio(sessionsWithClick, sessionsWithImpression)
        clickThroughRateInterval = RateInterval.wilson(successes: clicks, trials: impressions)
        closeRateInterval = RateInterval.wilson(successes: closes, trials: impressions)
        visitClickThroughRateInterval = RateInterval.wilson(
            successes: sessionsWithClick,
            trials: sessionsWithImpression
        )
    }

    static func ratio(_ numerator: Int, _ denominator: Int) -> Double? {
        denominator == 0 ? nil : Double(numerator) / Double(denominator)
    }
}

/// The figures for one piece of content.
public struct ContentStatistics: Sendable, Hashable, Codable {
    /// The content, with the last name its events carried.
    public var content: ContentReference
    /// Its figures.
    public var figures: ContentFigures
    /// Impressions, clicks and conversions per UTC day (or hour, see `ReportingStatistics.seriesInterval`),
    /// oldest first; only intervals with an event are listed.
    package var series: [ContentSeriesPoint]

    /// Creates statistics for one piece of content.
    /// - Parameters:
    ///   - content: The content.
    ///   - figures: Its figures.
    ///   - series: Its figures per day or hour.
    init(content: ContentReference, figures: ContentFigures, series: [ContentSeriesPoint] = []) {
        self.content = content
        self.figures = figures
        self.series = series
    }
}
