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

    private struct Entry {
        /// The texts of the content's source, id and last name (0 for none yet).
        var source: UInt32
        var id: UInt32
        var name: UInt32 = 0
        var figures = ContentFigures()
        /// Sessions by their number in `sessionNumbers`: four bytes each (one bit each once most sessions are in),
        /// not a string per content.
        var impressionSessions = SessionNumberSet()
        var clickSessions = SessionNumberSet()
        var series = SeriesCounts(empty: ContentSeriesPoint(start: ""))
    }

    /// A product click in 40 bytes: ids as 64-bit hashes (``IDHash``), the time as `Date` holds it, the content by
    /// its number; so memory grows by 40 bytes a click, not by the strings and arrays of each.
    private struct ProductClick {
        var time: Double
        var product: UInt64
        var anonymousID: UInt64
        /// 0 without a user id.
        var userID: UInt64
        var content: UInt32
    }

    /// One product of one purchase event.
    private struct PurchasedProduct {
        var time: Double
        var product: UInt64
        var anonymousID: UInt64
        /// 0 without a user id.
        var userID: UInt64
    }

    private let attributionWindow: Double
    private let seriesInterval: SeriesInterval
    /// The contents by number, in order of their first event.
    private var entries: [Entry] = []
    /// The contents' numbers, keyed by their source's and id's texts (a pair that `contentKey(source:id:)` mixes
    /// one to one, so two contents never share a key).
    private var contentNumbers = SessionNumbers()
    private var productClicks: [ProductClick] = []
    private var purchasedProducts: [PurchasedProduct] = []
    /// Every session seen, numbered in order of appearance, so that per-content session sets hold numbers.
    private var sessionNumbers = SessionNumbers()
    private var eventCount = 0
    private var malformed = 0

    init(attributionWindow: Double, seriesInterval: SeriesInterval = .day) {
        self.attributionWindow = attributionWindow
        self.seriesInterval = seriesInterval
    }

    mutating func add(_ event: StatisticsEvent) {
        eventCount += 1
        let session = sessionNumbers.number(ofHash: event.session)
        if event.type == StatisticsTexts.purchase {
            let time = event.timestamp.timeIntervalSinceReferenceDate
            for product in event.purchasedProducts {
                purchasedProducts.append(
                    PurchasedProduct(time: time, product: product, anonymousID: event.anonymous, userID: event.user)
                )
            }
            return
        }
        guard let status = event.contentStatus else { return }
        // Failures of the app's own actions are `error` events too, but they are not content.
        if event.contentSource == StatisticsTexts.appAction { return }
        guard event.contentID != 0, event.contentID != StatisticsTexts.empty else {
            malformed += 1
            return
        }
        let source = event.contentSource == 0 ? StatisticsTexts.fallbackSource : event.contentSource
        let number = Int(contentNumbers.number(ofHash: Self.contentKey(source: source, id: event.contentID)))
        if number == entries.count { entries.append(Entry(source: source, id: event.contentID)) }
        let productClick = Self.update(
            &entries[number],
            status: status,
            number: UInt32(truncatingIfNeeded: number),
            event: event,
            session: session,
            seriesInterval: seriesInterval
        )
        if let productClick { productClicks.append(productClick) }
    }

    /// The pair of texts as a well-mixed 64-bit key, never 0: MurmurHash3's finalizer is one to one, so distinct
    /// pairs give distinct keys.
    private static func contentKey(source: UInt32, id: UInt32) -> UInt64 {
        var key = UInt64(source) << 32 | UInt64(id)
        key ^= key >> 33
        key &*= 0xFF51_AFD7_ED55_8CCD
        key ^= key >> 33
        key &*= 0xC4CE_B9FE_1A85_EC53
        key ^= key >> 33
        return key
    }

    /// Counts one content event into its entry; returns the product click to remember, if it is one.
    private static func update(
        _ entry: inout Entry,
        status: ContentStatus,
        number: UInt32,
        event: StatisticsEvent,
        session: UInt32,
        seriesInterval: SeriesInterval
    ) -> ProductClick? {
        if event.contentName != 0 { entry.name = event.contentName }
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
            if event.productID != 0 {
                return ProductClick(
                    time: event.timestamp.timeIntervalSinceReferenceDate,
                    product: event.productID,
                    anonymousID: event.anonymous,
                    userID: event.user,
                    content: number
                )
            }
        case .article:
            entry.figures.articleClicks += 1
        case .error:
            entry.figures.errors += 1
        }
        return nil
    }

    /// The figures, the contents' texts read from `texts`, where the events added were numbered.
    mutating func finish(texts: StatisticsTexts) -> Result {
        let credited = attributions()
        for (purchase, content) in zip(purchasedProducts, credited) {
            guard let content else { continue }
            let date = Date(timeIntervalSinceReferenceDate: purchase.time)
            entries[Int(content)].figures.attributedPurchases += 1
            entries[Int(content)].series.update(at: date, in: seriesInterval) { $0.conversions += 1 }
        }
        var totals = ContentFigures()
        // Every session that saw an impression (a click) of any content, a bit per session number.
        var impressionSessions = [UInt64](repeating: 0, count: (sessionNumbers.count + 63) / 64)
        var clickSessions = impressionSessions
        var contents: [ContentStatistics] = []
        for entry in entries {
            var figures = entry.figures
            figures.sessionsWithImpression = entry.impressionSessions.count
            figures.sessionsWithClick = entry.clickSessions.count
            figures.computeRates()
            let content = ContentReference(
                source: ContentSource(rawValue: texts.text(entry.source) ?? ""),
                id: texts.text(entry.id) ?? "",
                name: texts.text(entry.name)
            )
            contents.append(ContentStatistics(content: content, figures: figures, series: series(of: entry)))
            totals.impressions += figures.impressions
            totals.clicks += figures.clicks
            totals.closes += figures.closes
            totals.productClicks += figures.productClicks
            totals.articleClicks += figures.articleClicks
            totals.errors += figures.errors
            totals.attributedPurchases += figures.attributedPurchases
            entry.impressionSessions.addMembers(to: &impressionSessions)
            entry.clickSessions.addMembers(to: &clickSessions)
        }
        totals.sessionsWithImpression = impressionSessions.reduce(0) { $0 + $1.nonzeroBitCount }
        totals.sessionsWithClick = clickSessions.reduce(0) { $0 + $1.nonzeroBitCount }
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
            purchasedProducts: purchasedProducts.count,
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

    /// For each purchased product, the number of the content whose product click it is credited to: the most recent
    /// click on that product by the same person (same anonymous id, or same user id) no more than the window before
    /// the purchase (the first such click in event order when several share that time); nil when there is none.
    private func attributions() -> [UInt32?] {
        let byAnonymous = productClicks.sorted {
            ($0.product, $0.anonymousID, $0.time) < ($1.product, $1.anonymousID, $1.time)
        }
        let byUser = productClicks.filter { $0.userID != 0 }.sorted {
            ($0.product, $0.userID, $0.time) < ($1.product, $1.userID, $1.time)
        }
        return purchasedProducts.map { purchase in
            let anonymous = Self.lastClick(in: byAnonymous, product: purchase.product, at: purchase.time) {
                $0.anonymousID == purchase.anonymousID ? 0 : $0.anonymousID < purchase.anonymousID ? -1 : 1
            }
            var best = anonymous
            if purchase.userID != 0,
                let user = Self.lastClick(
                    in: byUser,
                    product: purchase.product,
                    at: purchase.time,
                    {
                        $0.userID == purchase.userID ? 0 : $0.userID < purchase.userID ? -1 : 1
                    }
                ),
                best == nil || user.time > best!.time
            {
                best = user
            }
            guard let best, purchase.time - best.time <= attributionWindow else { return nil }
            return best.content
        }
    }

    /// The latest click at or before `time` among those of `product` and the person `compare` matches (0 for
    /// the person, below 0 for one sorted before), the first of equal times; nil when there is none.
    private static func lastClick(
        in clicks: [ProductClick],
        product: UInt64,
        at time: Double,
        _ compare: (ProductClick) -> Int
    ) -> ProductClick? {
        // The first click past (product, person, time): everything before it sorts at or below the purchase.
        var low = 0
        var high = clicks.count
        while low < high {
            let middle = (low + high) / 2
            let click = clicks[middle]
            let order = click.product != product ? (click.product < product ? -1 : 1) : compare(click)
            if order < 0 || (order == 0 && click.time <= time) { low = middle + 1 } else { high = middle }
        }
        guard low > 0, clicks[low - 1].product == product, compare(clicks[low - 1]) == 0 else { return nil }
        var index = low - 1
        while index > 0, clicks[index - 1].product == product, compare(clicks[index - 1]) == 0,
            clicks[index - 1].time == clicks[index].time
        {
            index -= 1
        }
        return clicks[index]
    }
}
