import Foundation

/// The length of one point of a time series: a UTC day or a UTC hour.
package enum SeriesInterval: String, Sendable, Hashable, Codable, CaseIterable {
    /// UTC calendar days.
    case day
    /// UTC clock hours.
    case hour

    /// The interval's length in seconds.
    package var seconds: Double {
        switch self {
        case .day: 86_400
        case .hour: 3_600
        }
    }

    /// The index of the interval holding `date`, counted from 1970-01-01T00:00:00Z, or nil for a date more than
    /// about 300,000 years away (a corrupt timestamp is left out of series rather than trapping).
    package func index(of date: Date) -> Int64? {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e13 else { return nil }
        return Int64((seconds / self.seconds).rounded(.down))
    }

    /// The start of interval `index` in ISO 8601, UTC, for example `2026-11-25T00:00:00Z`.
    package func start(ofIndex index: Int64) -> String {
        let totalSeconds = index * Int64(seconds)
        let days = totalSeconds >= 0 ? totalSeconds / 86_400 : (totalSeconds - 86_399) / 86_400
        let hour = (totalSeconds - days * 86_400) / 3_600
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        let yearText = year >= 0 && year < 10_000 ? Self.padded(year, 4) : String(year)
        return "\(yearText)-\(Self.padded(month, 2))-\(Self.padded(day, 2))T\(Self.padded(hour, 2)):00:00Z"
    }

    /// The proleptic Gregorian date of a day count (Howard Hinnant's `civil_from_days`).
    private static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

/// One point of a content's time series: what happened in one day (or hour).
package struct ContentSeriesPoint: Sendable, Hashable, Codable {
    /// The start of the day or hour, ISO 8601 in UTC, for example `2026-11-25T00:00:00Z`.
    package var start: String
    /// `executed` events in the interval.
    package var impressions = 0
    /// `target` events in the interval.
    package var clicks = 0
    /// Purchased products credited to the content's product clicks, counted on the purchase's day (or hour).
    package var conversions = 0
    /// ``clicks`` / ``impressions``, or nil without impressions.
    package var clickThroughRate: Double?
    /// Wilson's 95% interval of ``clickThroughRate``, or nil without impressions.
    package var clickThroughRateInterval: RateInterval?

    /// Creates an empty point.
    /// - Parameter start: The start of its interval, ISO 8601 in UTC.
    init(start: String) {
        self.start = start
    }
}

/// Counts per interval index, kept while events stream; memory grows with the intervals that saw events.
///
/// The interval updated last is kept apart from the others, so that a run of events in one day (or hour), the usual
/// case for events read in time order, updates it in place without a dictionary lookup each.
package struct SeriesCounts<Counts> {
    private var stored: [Int64: Counts] = [:]
    private var currentIndex: Int64?
    private var current: Counts
    private let empty: Counts

    package init(empty: Counts) {
        self.empty = empty
        current = empty
    }

    /// The counts of every interval that saw events, by index.
    package var byIndex: [Int64: Counts] {
        var all = stored
        if let currentIndex { all[currentIndex] = current }
        return all
    }

    /// Updates the counts of the interval holding `date`; a date out of range is left out.
    package mutating func update(at date: Date, in interval: SeriesInterval, _ change: (inout Counts) -> Void) {
        guard let index = interval.index(of: date) else { return }
        if index != currentIndex {
            if let currentIndex { stored[currentIndex] = current }
            current = stored.removeValue(forKey: index) ?? empty
            currentIndex = index
        }
        change(&current)
    }

    /// The intervals that saw events, oldest first.
    package var sorted: [(index: Int64, counts: Counts)] {
        byIndex.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
