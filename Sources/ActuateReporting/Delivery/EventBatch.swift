import Foundation

/// A group of stored events sent to the collector in one request.
///
/// Its JSON form in Actuate's own encoding (``EventBatchEncoding/actuate``) is the request body that
/// ``HTTPEventTransport`` posts by default:
///
/// ```json
/// {"batch": [{"id": "…", "type": "executed", "timestamp": "2026-01-01T00:00:00.000Z", …}], "sentAt": "…"}
/// ```
///
/// Dates are ISO 8601 strings in UTC with milliseconds. Non-finite numbers, which JSON cannot hold, are sent as
/// the strings `"NaN"`, `"Infinity"` and `"-Infinity"` rather than failing the whole batch.
public struct EventBatch: Sendable, Hashable {
    /// The events, oldest first.
    public var events: [ReportEvent] {
        didSet { actuateElements = EncodedEvents() }
    }
    /// When the batch was sent, read from the uploader's scheduler.
    public var sentAt: Date
    /// The events as ``EventBatchEncoding/actuate`` writes them in the `batch` array, comma separated, when the
    /// store already wrote them so to measure the batch: the body is then built around them instead of encoding
    /// every event a second time. Setting ``events`` drops them.
    var actuateElements = EncodedEvents()

    /// JSON written ahead for a batch's events. It only repeats the events, so it takes no part in the batch's
    /// equality or hash.
    struct EncodedEvents: Sendable, Hashable {
        /// The bytes, or nil when nothing was written ahead.
        var bytes: [UInt8]?

        static func == (lhs: Self, rhs: Self) -> Bool { true }

        func hash(into hasher: inout Hasher) {}
    }

    /// Creates a batch.
    /// - Parameters:
    ///   - events: The events, oldest first.
    ///   - sentAt: When the batch is sent.
    init(events: [ReportEvent], sentAt: Date) {
        self.events = events
        self.sentAt = sentAt
    }

    /// The identifiers of the batch's events.
    var ids: Set<ReportEvent.ID> {
        Set(events.map(\.id))
    }

    /// The batch as the JSON request body in Actuate's own format.
    ///
    /// - Returns: UTF-8 JSON: an object with a `batch` array of events and a `sentAt` date.
    /// - Throws: Never at present; the signature leaves room for formats that can fail.
    package func encodedJSON() throws -> Data {
        encoded(as: .actuate)
    }

    /// The batch as a request body in the given wire format.
    ///
    /// - Parameter encoding: The wire format.
    /// - Returns: UTF-8 JSON.
    public func encoded(as encoding: EventBatchEncoding) -> Data {
        Data(encoding.body(for: self))
    }

    /// The size in bytes of ``encoded(as:)``, computed without building the body.
    ///
    /// - Parameter encoding: The wire format.
    /// - Returns: The body's size.
    func encodedSize(as encoding: EventBatchEncoding) -> Int {
        var sizer = EventBatchEncoding.Sizer(encoding)
        let eventBytes = events.reduce(0) { $0 + sizer.size(of: $1) }
        return encoding.envelopeSize + eventBytes + max(0, events.count - 1)
    }
}
