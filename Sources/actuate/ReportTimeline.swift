/// The `timeline` section of a format 1 debug report.
struct ReportTimeline: Decodable {
    /// The most entries the timeline kept.
    var maxEntries: Int
    /// The entries, as written.
    var entries: [ReportTimelineEntry]
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

    /// The end on the monotonic clock, or nil while it runs.
    var endOffsetNanoseconds: Int64? {
        durationNanoseconds.map { startOffsetNanoseconds + $0 }
    }

    /// `Feature › Action`.
    var title: String { "\(featureName) › \(actionName)" }

    /// The status the charts colour by.
    var status: ReportOutcome.Status { outcome?.status ?? .running }
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
