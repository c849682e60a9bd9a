import Actuate
import Foundation

/// How personalized content performs, computed from recorded events: impressions, clicks, CTR, closes, close
/// rate, product and article clicks, errors, "CTR of visit", and product-click contribution to purchases; and,
/// from the hooks, how each action performs (``actions``) and how users arrive (`arrivals`).
///
/// ```swift
/// let statistics = try ReportingStatistics(store: store)
/// print(statistics)                                   // a text table
/// let ctr = statistics[ContentReference(source: ContentSource(rawValue: "banner"), id: "7")]?.clickThroughRate
/// let json = try JSONEncoder().encode(statistics)     // the same figures as JSON
/// ```
///
/// Definitions:
/// - Content is grouped by source and id; events of a content status without an `actionId` are counted in
///   ``malformedEventCount`` and otherwise ignored. Events of other types count only in the number of events read.
/// - A click is a `target` event; `product` and `article` clicks are counted apart.
/// - "CTR of visit" is sessions with a click over sessions with an impression, per content and overall.
/// - Contribution: each product id in a `purchase` event is credited to the most recent `product` click on that
///   product by the same person (same anonymous id, or same user id) no more than `attributionWindow` before
///   the purchase (the window's end is included). A purchase before the click, or outside the window, is not
///   credited.
/// - A rate whose denominator is zero is nil, never 0 and never a division by zero. Every rate carries Wilson's
///   95% score interval in the statistics JSON, absent with it.
/// - Series: each content's impressions, clicks and credited purchases per UTC day (or hour, with
///   `actuate stats --series hour`), from the events' timestamps, gathered in the same pass.
/// - Per-action figures come from `action_ended` events (`ReportingAnalyticsProvider`), grouped by
///   `analyticsId`; `error` events from `ContentSource/appAction` are not content and are left out of the
///   content figures.
/// - Reading a ``FileEventStore`` streams it in pages, so the whole store is never held in memory; the figures
///   keep per-content and per-action counts, session sets, product clicks and purchases, and one duration sketch
///   per action (quantiles within 1%).
public struct ReportingStatistics: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Figures per piece of content, sorted by source and then id.
    public var contents: [ContentStatistics]
    /// Figures over all content; its session counts count each session once.
    public var totals: ContentFigures
    /// Product ids bought, counted once per purchase event and product.
    public var purchasedProducts: Int
    /// The purchases credited to product clicks (`attributedPurchases` of the ``totals``, in the statistics JSON)
    /// over ``purchasedProducts``, or nil when nothing was bought.
    public var contributionRate: Double?
    /// The number of events read.
    public var eventCount: Int
    /// The number of distinct sessions the events belong to.
    public var sessionCount: Int
    /// Content-status events that name no content.
    public var malformedEventCount: Int
    /// Events delivery gave up on, kept in the store's dead-letter file; they are not in the figures.
    public var deadLetterCount: Int
    /// The attribution window, in seconds.
    package var attributionWindowSeconds: Double
    /// The length of one point of each content's `ContentStatistics/series`.
    package var seriesInterval: SeriesInterval
    /// Figures per action with an `analyticsID`, sorted by it.
    public var actions: [ActionStatistics]
    /// URL opens, broken links and activities.
    package var arrivals: ArrivalFigures

    /// The default attribution window: 7 days.
    @usableFromInline package static let defaultAttributionWindow = Duration.seconds(7 * 24 * 60 * 60)

    /// The attribution window.
    package var attributionWindow: Duration { .nanoseconds(Int64(attributionWindowSeconds * 1e9)) }

    /// The figures for one piece of content, matched by source and id (the name is ignored).
    /// - Parameter content: The content.
    /// - Returns: Its figures, or nil when no event named it.
    public subscript(content: ContentReference) -> ContentFigures? {
        contents.first { $0.content.source == content.source && $0.content.id == content.id }?.figures
    }

    /// The figures for one action.
    /// - Parameter analyticsID: The action's `analyticsID`.
    /// - Returns: Its figures, or nil when no `action_ended` event named it.
    public subscript(action analyticsID: String) -> ActionFigures? {
        actions.first { $0.analyticsID == analyticsID }?.figures
    }

    /// Computes statistics from events, in any order.
    /// - Parameters:
    ///   - events: The events.
    ///   - deadLetterCount: How many events were dead-lettered, for display.
    ///   - attributionWindow: How long after a product click a purchase of that product is credited to it.
    ///   - seriesInterval: Days or hours, for the series.
    package init<Events: Sequence<ReportEvent>>(
        events: Events,
        deadLetterCount: Int = 0,
        attributionWindow: Duration = ReportingStatistics.defaultAttributionWindow,
        seriesInterval: SeriesInterval = .day
    ) {
        var builder = StatisticsBuilder(attributionWindow: attributionWindow, seriesInterval: seriesInterval)
        for event in events { builder.add(event) }
        self = builder.finish(deadLetterCount: deadLetterCount)
    }

    init(
        _ accumulator: StatisticsAccumulator,
        _ hooks: HookStatisticsAccumulator,
        texts: StatisticsTexts,
        deadLetterCount: Int,
        attributionWindow: Duration,
        seriesInterval: SeriesInterval
    ) {
        var accumulator = accumulator
        let result = accumulator.finish(texts: texts)
        (actions, arrivals) = hooks.finish(texts: texts)
        contents = result.contents
        totals = result.totals
        purchasedProducts = result.purchasedProducts
        contributionRate = ContentFigures.ratio(result.totals.attributedPurchases, result.purchasedProducts)
        eventCount = result.eventCount
        sessionCount = result.sessionCount
        malformedEventCount = result.malformedEventCount
        self.deadLetterCount = deadLetterCount
        attributionWindowSeconds = attributionWindow.seconds
        self.seriesInterval = seriesInterval
    }

    /// Computes statistics from everything pending in a store, without removing anything, plus its dead-letter
    /// count.
    ///
    /// A ``FileEventStore`` is read in pages of a thousand events, in one pass, so memory does not grow with the
    /// store; a ``MemoryEventStore`` is read in place. Other stores are read whole with
    /// ``EventStore/fetch(count:maxBytes:)``.
    /// - Parameters:
    ///   - store: The store to read.
    ///   - attributionWindow: How long after a product click a purchase of that product is credited to it (7 days
    ///     by default).
    /// - Throws: ``ReportingError/storeFailed(operation:reason:)`` when the store cannot be read.
    public init(
        store: any EventStore,
        attributionWindow: Duration = ReportingStatistics.defaultAttributionWindow
    ) throws(ReportingError) {
        try self.init(store: store, attributionWindow: attributionWindow, seriesInterval: .day)
    }

    /// Computes statistics from everything pending in a store as the public initializer does, with series points
    /// of `seriesInterval` (the `actuate stats --series` option).
    package init(
        store: any EventStore,
        attributionWindow: Duration = ReportingStatistics.defaultAttributionWindow,
        seriesInterval: SeriesInterval
    ) throws(ReportingError) {
        try self.init(
            store: store,
            pageSize: Self.defaultPageSize,
            attributionWindow: attributionWindow,
            seriesInterval: seriesInterval,
            alsoReading: { _ in }
        )
    }

    /// Computes statistics from a store, reading a streaming store `pageSize` events at a time, and hands every
    /// event to `alsoReading` in the same pass (for figures another module computes, such as campaign lift).
    package init(
        store: any EventStore,
        pageSize: Int,
        attributionWindow: Duration,
        seriesInterval: SeriesInterval = .day,
        alsoReading: (ReportEvent) -> Void = { _ in }
    ) throws(ReportingError) {
        var builder = StatisticsBuilder(attributionWindow: attributionWindow, seriesInterval: seriesInterval)
        let deadLetters: Int
        do {
            if let streaming = store as? any StoredEventStreaming {
                try streaming.forEachStoredEvent(pageSize: pageSize) { event in
                    builder.add(event)
                    alsoReading(event)
                }
                deadLetters = try streaming.deadLetterCount()
            } else {
                for event in try store.fetch(count: try store.count(), maxBytes: Int.max / 2) {
                    builder.add(event)
                    alsoReading(event)
                }
                deadLetters = try store.deadLetters().count
            }
        } catch {
            throw .storeFailed(operation: "read events for statistics", reason: String(describing: error))
        }
        self = builder.finish(deadLetterCount: deadLetters)
    }

    /// The statistics as a text table, one row per piece of content and a total row, then a summary line; then,
    /// when the hooks recorded any, a table of the actions and a line of arrivals and broken links.
    public var description: String {
        let actions = ActionStatisticsTable(statistics: self).render()
        let content = StatisticsTable(statistics: self).render()
        return actions.isEmpty ? content : content + "\n\n" + actions
    }
}
