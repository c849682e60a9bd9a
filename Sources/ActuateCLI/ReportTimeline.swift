/// The `timeline` section of a format 1 debug report.
struct ReportTimeline: Decodable {
    /// The most entries the timeline kept.
    var maxEntries: Int
    /// The entries, as written.
    var entries: [ReportTimelineEntry]

    private enum CodingKeys: String, CodingKey {
        case maxEntries, entries
    }

    init(maxEntries: Int, entries: [ReportTimelineEntry]) {
        self.maxEntries = maxEntries
        self.entries = entries
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        maxEntries = try container.decodeNumber(Int.self, forKey: .maxEntries, in: 0...Int.max)
        entries = try container.decode([ReportTimelineEntry].self, forKey: .entries)
    }
}

/// One action of the timeline.
struct ReportTimelineEntry: Decodable, Equatable {
    var requestID: UInt64
    var sessionName: String
    var featureName: String
    var featurePath: String
    var actionName: String
    var queueLabel: String
    var inputDescription: String
    var userInitiated: Bool
    var source: ReportSource
    /// The wall-clock start, for people, as written (ISO 8601, UTC, microseconds).
    var startDate: String
    /// The dispatcher clock's monotonic reading at start: what layouts use.
    var startOffsetNanoseconds: Int64
    /// How long the action took; nil while it runs.
    var durationNanoseconds: Int64?
    /// How it ended; nil while it runs.
    var outcome: ReportOutcome?

    /// The end on the monotonic clock, or nil while it runs; `Int64.max` when the sum would pass it (a decoded
    /// entry never does: its duration is checked against its start).
    var endOffsetNanoseconds: Int64? {
        durationNanoseconds.map { duration in
            let (end, overflow) = startOffsetNanoseconds.addingReportingOverflow(duration)
            return overflow ? (duration < 0 ? .min : .max) : end
        }
    }

    /// `Feature › Action`.
    var title: String { "\(featureName) › \(actionName)" }

    /// The status the charts colour by.
    var status: ReportOutcome.Status { outcome?.status ?? .running }
}

extension ReportTimelineEntry {
    private enum CodingKeys: String, CodingKey {
        case requestID, sessionName, featureName, featurePath, actionName, queueLabel, inputDescription
        case userInitiated, source, startDate, startOffsetNanoseconds, durationNanoseconds, outcome
    }

    /// Reads an entry, range-checking its numbers before anything does arithmetic with them: the start is a
    /// monotonic reading from 0 to `Int64.max`, and the duration is at least 0 and ends by `Int64.max`.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let start = try container.decodeNumber(Int64.self, forKey: .startOffsetNanoseconds, in: 0...Int64.max)
        self.init(
            requestID: try container.decodeNumber(UInt64.self, forKey: .requestID, in: 0...UInt64.max),
            sessionName: try container.decode(String.self, forKey: .sessionName),
            featureName: try container.decode(String.self, forKey: .featureName),
            featurePath: try container.decode(String.self, forKey: .featurePath),
            actionName: try container.decode(String.self, forKey: .actionName),
            queueLabel: try container.decode(String.self, forKey: .queueLabel),
            inputDescription: try container.decode(String.self, forKey: .inputDescription),
            userInitiated: try container.decode(Bool.self, forKey: .userInitiated),
            source: try container.decode(ReportSource.self, forKey: .source),
            startDate: try container.decode(String.self, forKey: .startDate),
            startOffsetNanoseconds: start,
            durationNanoseconds: try container.decodeNumberIfPresent(
                Int64.self,
                forKey: .durationNanoseconds,
                in: 0...(Int64.max - start),
                why: "so that the action ends by 9223372036854775807 ns"
            ),
            outcome: try container.decodeIfPresent(ReportOutcome.self, forKey: .outcome)
        )
    }
}

/// Arithmetic on monotonic readings that saturates instead of trapping, for entries built in code; decoded
/// entries are range-checked so that it never needs to.
enum Nanoseconds {
    /// `end - start`, or `Int64.max` (`Int64.min`) when the difference does not fit.
    static func between(_ start: Int64, _ end: Int64) -> Int64 {
        let (difference, overflow) = end.subtractingReportingOverflow(start)
        return overflow ? (end > start ? .max : .min) : difference
    }
}

extension KeyedDecodingContainer {
    /// A whole number in `range`. A number that is fractional, does not fit `T` or lies outside `range` throws
    /// `DecodingError.dataCorrupted` at the key's path, naming the range, so that no report can make later
    /// arithmetic overflow.
    ///
    /// - Parameters:
    ///   - type: The integer type.
    ///   - key: The key.
    ///   - range: The values allowed.
    ///   - why: Words that explain the range, added to the message.
    func decodeNumber<T: FixedWidthInteger & Decodable>(
        _ type: T.Type,
        forKey key: Key,
        in range: ClosedRange<T>,
        why: String? = nil
    ) throws -> T {
        let value: T
        do {
            value = try decode(T.self, forKey: key)
        } catch let error as DecodingError {
            guard case .dataCorrupted = error else { throw error }
            throw outOfRange(key, range, found: "a number outside it", why: why)
        } catch {
            // JSONDecoder reports a number that does not fit `T` (1e300, 0.5, 2^64) with an error of its own, which
            // it turns into "not valid JSON" at the root unless caught here.
            throw outOfRange(key, range, found: "a number outside it", why: why)
        }
        guard range.contains(value) else { throw outOfRange(key, range, found: "\(value)", why: why) }
        return value
    }

    /// Like ``decodeNumber(_:forKey:in:why:)``, or nil when the key is absent or null.
    func decodeNumberIfPresent<T: FixedWidthInteger & Decodable>(
        _ type: T.Type,
        forKey key: Key,
        in range: ClosedRange<T>,
        why: String? = nil
    ) throws -> T? {
        guard contains(key), !(try decodeNil(forKey: key)) else { return nil }
        return try decodeNumber(type, forKey: key, in: range, why: why)
    }

    private func outOfRange<T: Comparable>(
        _ key: Key,
        _ range: ClosedRange<T>,
        found: String,
        why: String?
    ) -> DecodingError {
        DecodingError.dataCorruptedError(
            forKey: key,
            in: self,
            debugDescription: "expected a whole number from \(range.lowerBound) to \(range.upperBound)"
                + (why.map { " (\($0))" } ?? "") + ", found \(found)"
        )
    }
}

/// Where a request came from.
struct ReportSource: Decodable, Equatable, CustomStringConvertible {
    var kind: String
    var url: String?
    var activityType: String?

    var description: String {
        switch kind {
        case "openURL": url.map { "openURL \($0)" } ?? "openURL"
        case "continueActivity": activityType.map { "continueActivity \($0)" } ?? "continueActivity"
        default: kind
        }
    }
}

/// How an action ended.
struct ReportOutcome: Decodable, Equatable, CustomStringConvertible {
    /// The four ways charts show an action.
    enum Status: String {
        case success
        case failure
        case cancelled
        case running
    }

    var kind: String
    var message: String?

    var status: Status {
        switch kind {
        case "success", "successWithFeatureTermination": .success
        case "cancelled": .cancelled
        default: .failure
        }
    }

    var description: String {
        let words =
            switch kind {
            case "success": "success"
            case "successWithFeatureTermination": "success, feature terminated"
            case "failure": "FAILED"
            case "failureWithFeatureTermination": "FAILED, feature terminated"
            case "cancelled": "cancelled"
            default: kind
            }
        return message.map { "\(words): \($0)" } ?? words
    }
}
