import Actuate
import Foundation

/// How personalised content performs, computed from recorded events: impressions, clicks, CTR, closes, close
/// rate, product and article clicks, errors, "CTR of visit", and product-click contribution to purchases.
///
/// ```swift
/// let statistics = try ReportingStatistics(store: store)
/// print(statistics)                                   // a text table
/// let ctr = statistics[.contentAction(id: 7)]?.clickThroughRate
/// let json = try JSONEncoder().encode(statistics)     // the same figures as JSON
/// ```
///
/// Definitions:
/// - Content is grouped by source and id; events of a content status without an `actionId` are counted in
///   ``malformedEventCount`` and otherwise ignored. Events of other types count only in ``eventCount``.
/// - A click is a `target` event; `product` and `article` clicks are counted apart.
/// - "CTR of visit" is sessions with a click over sessions with an impression, per content and overall.
/// - Contribution: each product id in a `purchase` event is credited to the most recent `product` click on that
///   product by the same person (same anonymous id, or same user id) no more than ``attributionWindow`` before
///   the purchase (the window's end is included). A purchase before the click, or outside the window, is not
///   credited.
/// - A rate whose denominator is zero is nil, never 0 and never a division by zero.
public struct ReportingStatistics: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Figures per piece of content, sorted by source and then id.
    public var contents: [ContentStatistics]
    /// Figures over all content; its session counts count each session once.
    public var totals: ContentFigures
    /// Product ids bought, counted once per purchase event and product.
    public var purchasedProducts: Int
    /// ``ContentFigures/attributedPurchases`` over ``purchasedProducts``, or nil when nothing was bought.
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
    public var attributionWindowSeconds: Double

    /// The default attribution window: 7 days.
    public static let defaultAttributionWindow = Duration.seconds(7 * 24 * 60 * 60)

    /// The attribution window.
    public var attributionWindow: Duration { .nanoseconds(Int64(attributionWindowSeconds * 1e9)) }

    /// The figures for one piece of content, matched by source and id (the name is ignored).
    /// - Parameter content: The content.
    /// - Returns: Its figures, or nil when no event named it.
    public subscript(content: ContentReference) -> ContentFigures? {
        contents.first { $0.content.source == content.source && $0.content.id == content.id }?.figures
    }

    /// Computes statistics from events, in any order.
    /// - Parameters:
    ///   - events: The events.
    ///   - deadLetterCount: How many events were dead-lettered, for display.
    ///   - attributionWindow: How long after a product click a purchase of that product is credited to it.
    public init<Events: Sequence<ReportEvent>>(
        events: Events,
        deadLetterCount: Int = 0,
        attributionWindow: Duration = ReportingStatistics.defaultAttributionWindow
    ) {
        var accumulator = StatisticsAccumulator(attributionWindow: attributionWindow.seconds)
        for event in events {
            accumulator.add(event)
        }
        self.init(accumulator.finish(), deadLetterCount: deadLetterCount, attributionWindow: attributionWindow)
    }

    /// Takes the figures an accumulator finished with.
    init(
        _ result: StatisticsAccumulator.Result,
        deadLetterCount: Int,
        attributionWindow: Duration
    ) {
        contents = result.contents
        totals = result.totals
        purchasedProducts = result.purchasedProducts
        contributionRate = ContentFigures.ratio(result.totals.attributedPurchases, result.purchasedProducts)
        eventCount = result.eventCount
        sessionCount = result.sessionCount
        malformedEventCount = result.malformedEventCount
        self.deadLetterCount = deadLetterCount
        attributionWindowSeconds = attributionWindow.seconds
    }

    /// Computes statistics from everything pending in a store, without removing anything, plus its dead-letter
    /// count.
    ///
    /// This reads every pending event at once. To read a large file store page by page instead, use
    /// ``init(fileStoreDirectory:pageSize:attributionWindow:)``.
    /// - Parameters:
    ///   - store: The store to read.
    ///   - attributionWindow: How long after a product click a purchase of that product is credited to it.
    /// - Throws: ``ReportingError/storeFailed(operation:reason:)`` when the store cannot be read.
    public init(
        store: any EventStore,
        attributionWindow: Duration = ReportingStatistics.defaultAttributionWindow
    ) throws(ReportingError) {
        let events: [ReportEvent]
        let deadLetters: Int
        do {
            events = try store.fetch(count: try store.count(), maxBytes: Int.max / 2)
            deadLetters = try store.deadLetters().count
        } catch {
            throw .storeFailed(operation: "read events for statistics", reason: String(describing: error))
        }
        self.init(events: events, deadLetterCount: deadLetters, attributionWindow: attributionWindow)
    }

    /// The statistics as a text table, one row per piece of content and a total row, then a summary line.
    public var description: String {
        StatisticsTable(statistics: self).render()
    }
}
