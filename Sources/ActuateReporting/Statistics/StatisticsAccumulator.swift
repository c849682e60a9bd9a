import Foundation

/// Gathers counts event by event, then attributes purchases and computes rates and series; memory grows with the
/// contents, sessions, product clicks and purchases, and contents × days (or hours), never with other events.
struct StatisticsAccumulator {
    struct Result {
        var contents: [ContentStatistics]
        var totals: ContentFigures
        var purchasedProducts: Int
        var eventCount: Int
        var sessionCount: Int
        var malformedEventCount: Int
    }

    private struct ContentKey: Hashable {
        var source: ContentSource
        var id: String
    }

    private struct Entry {
        var content: ContentReference
        var figures = ContentFigures()
        /// Sessions by their number in `sessionNumbers`: four bytes each, not a string per content.
        var impressionSessions: Set<UInt32> = []
        var clickSessions: Set<UInt32> = []
        var series = SeriesCounts(empty: ContentSeriesPoint(start: ""))
    }

    private struct ProductClick {
        var timestamp: Date
        var anonymousID: String
        var userID: String?
        var key: ContentKey
    }

    private struct Purchase {
        var timestamp: Date
        var anonymousID: String
        var userID: String?
        var productIDs: [String]
    }

    private let attributionWindow: Double
    private let seriesInterval: SeriesInterval
    private var entries: [ContentKey: Entry] = [:]
    /// A product clicked by one person, named by anonymous id or by user id.
    private struct PersonProduct: Hashable {
        var productID: String
        var person: String
        var isUserID: Bool
    }

    /// Product clicks by product and person, so that attributing a purchase looks at that person's clicks only.
    private var clicksByPersonProduct: [PersonProduct: [ProductClick]] = [:]
    private var purchases: [Purchase] = []
    /// Every session seen, numbered in order of appearance, so that per-content session sets hold numbers.
    private var sessionNumbers: [String: UInt32] = [:]
    private var eventCount = 0
    private var malformed = 0

    init(attributionWindow: Double, seriesInterval: SeriesInterval = .day) {
        self.attributionWindow = attributionWindow
        self.seriesInterval = seriesInterval
    }

    mutating func add(_ event: ReportEvent) {
        eventCount += 1
        let session: UInt32
        if let known = sessionNumbers[event.sessionID] {
            session = known
        } else {
            session = UInt32(truncatingIfNeeded: sessionNumbers.count)
            sessionNumbers[event.sessionID] = session
        }
        if event.eventType == .purchase {
            let ids = event.purchasedProductIDs
            if !ids.isEmpty {
                purchases.append(
                    Purchase(
                        timestamp: event.timestamp,
                        anonymousID: event.anonymousID,
                        userID: event.userID,
                        productIDs: ids
                    )
                )
            }
            return
        }
        guard let status = event.contentStatus else { return }
        // Failures of the app's own actions are `error` events too, but they are not content.
        if event.properties[ReportEventKey.contentSource]?.stringValue == ContentSource.appAction.rawValue { return }
        guard let content = event.contentReference else {
            malformed += 1
            return
        }
        let key = ContentKey(source: content.source, id: content.id)
        // Mutated in place: a copy taken out of the dictionary would copy its session sets on every event.
        let index: Dictionary<ContentKey, Entry>.Index
        if let found = entries.index(forKey: key) {
            index = found
        } else {
            entries[key] = Entry(content: content)
            index = entries.index(forKey: key)!
        }
        let productClick = Self.update(
            &entries.values[index],
            status: status,
            content: content,
            key: key,
            event: event,
            session: session,
            seriesInterval: seriesInterval
        )
        if let (productID, click) = productClick {
            clicksByPersonProduct[
                PersonProduct(productID: productID, person: click.anonymousID, isUserID: false),
                default: []
            ]
            .append(click)
            if let userID = click.userID {
                clicksByPersonProduct[PersonProduct(productID: productID, person: userID, isUserID: true), default: []]
                    .append(click)
            }
        }
    }

    /// Counts one content event into its entry; returns the product click to remember, if it is one.
    private static func update(
        _ entry: inout Entry,
        status: ContentStatus,
        content: ContentReference,
        key: ContentKey,
        event: ReportEvent,
        session: UInt32,
        seriesInterval: SeriesInterval
    ) -> (String, ProductClick)? {
        if content.name != nil { entry.content.name = content.name }
        switch status {
        case .executed:
            entry.figures.impressions += 1
            entry.impressionSessions.insert(session)
            entry.series.update(at: event.timestamp, in: seriesInterval) { $0.impressions += 1 }
        case .target:
            entry.figures.clicks += 1
            entry.clickSessions.insert(session)
            entry.series.update(at: event.timestamp, in: seriesInterval) { $0.clicks += 1 }
        case .close:
            entry.figures.closes += 1
        case .product:
            entry.figures.productClicks += 1
            if let productID = event.properties[ReportEventKey.productID]?.stringValue, !productID.isEmpty {
                let click = ProductClick(
                    timestamp: event.timestamp,
                    anonymousID: event.anonymousID,
                    userID: event.userID,
                    key: key
                )
                return (productID, click)
            }
        case .article:
            entry.figures.articleClicks += 1
        case .error:
            entry.figures.errors += 1
        }
        return nil
    }

    mutating func finish() -> Result {
        var purchasedProducts = 0
        for purchase in purchases {
            for productID in purchase.productIDs {
                purchasedProducts += 1
                if let key = lastQualifyingClick(on: productID, before: purchase)?.key {
                    entries[key]?.figures.attributedPurchases += 1
                    entries[key]?.series.update(at: purchase.timestamp, in: seriesInterval) { $0.conversions += 1 }
                }
            }
        }
        var totals = ContentFigures()
        var impressionSessions: Set<UInt32> = []
        var clickSessions: Set<UInt32> = []
        var contents: [ContentStatistics] = []
        for entry in entries.values {
            var figures = entry.figures
            figures.sessionsWithImpression = entry.impressionSessions.count
            figures.sessionsWithClick = entry.clickSessions.count
            figures.computeRates()
            contents.append(ContentStatistics(content: entry.content, figures: figures, series: series(of: entry)))
            totals.impressions += figures.impressions
            totals.clicks += figures.clicks
            totals.closes += figures.closes
            totals.productClicks += figures.productClicks
            totals.articleClicks += figures.articleClicks
            totals.errors += figures.errors
            totals.attributedPurchases += figures.attributedPurchases
            impressionSessions.formUnion(entry.impressionSessions)
            clickSessions.formUnion(entry.clickSessions)
        }
        totals.sessionsWithImpression = impressionSessions.count
        totals.sessionsWithClick = clickSessions.count
        totals.computeRates()
        contents.sort { lhs, rhs in
            if lhs.content.source != rhs.content.source {
                return lhs.content.source.rawValue < rhs.content.source.rawValue
            }
            return lhs.content.id.compare(rhs.content.id, options: .numeric) == .orderedAscending
        }
        return Result(
            contents: contents,
            totals: totals,
            purchasedProducts: purchasedProducts,
            eventCount: eventCount,
            sessionCount: sessionNumbers.count,
            malformedEventCount: malformed
        )
    }

    /// The entry's series points, oldest first, with their rates.
    private func series(of entry: Entry) -> [ContentSeriesPoint] {
        entry.series.sorted.map { index, counts in
            var point = counts
            point.start = seriesInterval.start(ofIndex: index)
            point.clickThroughRate = ContentFigures.ratio(point.clicks, point.impressions)
            point.clickThroughRateInterval = RateInterval.wilson(successes: point.clicks, trials: point.impressions)
            return point
        }
    }

    /// The most recent click on `productId` by the purchase's person within the window before it.
    private func lastQualifyingClick(on productID: String, before purchase: Purchase) -> ProductClick? {
        var candidates =
            clicksByPersonProduct[PersonProduct(productID: productID, person: purchase.anonymousID, isUserID: false)]
            ?? []
        if let userID = purchase.userID {
            candidates +=
                clicksByPersonProduct[PersonProduct(productID: productID, person: userID, isUserID: true)] ?? []
        }
        return candidates.filter { click in
            let elapsed = purchase.timestamp.timeIntervalSince(click.timestamp)
            return elapsed >= 0 && elapsed <= attributionWindow
        }
        .max { $0.timestamp < $1.timestamp }
    }
}
