import Foundation

/// The wire format of a batch request body.
///
/// ```swift
/// let transport = try HTTPEventTransport(
///     endpoint: URL(string: "https://api.segment.io/v1/batch")!,
///     apiKey: segmentWriteKey,
///     encoding: .segment
/// )
/// ```
public enum EventBatchEncoding: Sendable, Hashable, CaseIterable {
    /// Actuate's own JSON batch: `{"batch": [events], "sentAt": …}` with ``ReportEvent``'s field names; the key
    /// travels as `Authorization: Bearer <key>`.
    case actuate
    /// A batch for Segment's HTTP Tracking API (`POST /v1/batch`), which Segment and the collectors compatible
    /// with it (RudderStack, Jitsu and others) accept. Each event becomes one `track` message, or one `identify`
    /// message for events of type ``ReportEventType/identify``, with the event id as `messageId`. The key is the
    /// source's write key, sent as the HTTP Basic user name with an empty password.
    case segment

    /// Encodes a batch as a request body.
    /// - Parameter batch: The batch.
    /// - Returns: The UTF-8 JSON body.
    func body(for batch: EventBatch) -> [UInt8] {
        let capacity = 64 + batch.events.count * 320
        switch self {
        case .actuate:
            if let elements = batch.actuateElements.bytes {
                var writer = EventBatchJSONWriter(reservingCapacity: elements.count + 64)
                writer.writeBatch(elements: elements, sentAt: batch.sentAt)
                return writer.bytes
            }
            var writer = EventBatchJSONWriter(reservingCapacity: capacity)
            writer.writeBatch(batch.events, sentAt: batch.sentAt)
            return writer.bytes
        case .segment:
            var writer = SegmentBatchJSONWriter(reservingCapacity: capacity)
            writer.writeBatch(batch.events, sentAt: batch.sentAt)
            return writer.bytes
        }
    }

    /// Encodes events as the body of one batch request, as a collector receives it (for tools and tests that write
    /// collected files).
    /// - Parameters:
    ///   - events: The events.
    ///   - sentAt: The batch's `sentAt`.
    /// - Returns: The UTF-8 JSON body.
    package func body(of events: [ReportEvent], sentAt: Date) -> [UInt8] {
        body(for: EventBatch(events: events, sentAt: sentAt))
    }

    /// The size of the body of a batch with no events: the envelope around the events.
    var envelopeSize: Int {
        switch self {
        case .actuate: Self.actuateEnvelopeSize
        case .segment: Self.segmentEnvelopeSize
        }
    }

    private static let actuateEnvelopeSize = EventBatchEncoding.actuate.body(for: .empty).count
    private static let segmentEnvelopeSize = EventBatchEncoding.segment.body(for: .empty).count

    /// Measures events as this encoding writes them into a batch.
    struct Sizer {
        let encoding: EventBatchEncoding
        private var scratch = JSONByteWriter(reservingCapacity: 4096)

        init(_ encoding: EventBatchEncoding) {
            self.encoding = encoding
        }

        /// The bytes one event takes in the `batch` array, without the comma that separates it from the next.
        ///
        /// Every date in the body is written with a fixed width, so the size does not depend on `sentAt`.
        mutating func size(of event: ReportEvent) -> Int {
            scratch.bytes.removeAll(keepingCapacity: true)
            // The writer is swapped the only reference to the scratch buffer, so writing into it copies nothing.
            switch encoding {
            case .actuate:
                var writer = EventBatchJSONWriter(json: JSONByteWriter())
                swap(&writer.json, &scratch)
                writer.writeEvent(event)
                swap(&writer.json, &scratch)
            case .segment:
                var writer = SegmentBatchJSONWriter(json: JSONByteWriter())
                swap(&writer.json, &scratch)
                writer.writeMessage(event, sentAt: Date(timeIntervalSince1970: 0))
                swap(&writer.json, &scratch)
            }
            return scratch.bytes.count
        }
    }
}

extension EventBatch {
    /// A batch with no events, to measure an encoding's envelope.
    fileprivate static let empty = EventBatch(events: [], sentAt: Date(timeIntervalSince1970: 0))
}

/// How stores and the uploader cut batches by size.
///
/// A batch of events `e1 … en` has a body of `envelopeSize + Σ size(ei) + (n − 1)` bytes. The stores'
/// `maxBytes` limits `Σ (size(ei) + 1)`, each event with its separating comma, so a store asked for
/// `maxBatchBytes − envelopeSize + 1` bytes returns exactly the events whose body fits in `maxBatchBytes`.
enum EventBatchSizing {
    /// The longest prefix of `events` whose events, each counted with one separator byte, take at most
    /// `maxBytes`; at least one event when `events` is not empty.
    /// - Parameters:
    ///   - events: Candidate events, oldest first.
    ///   - maxBytes: The byte budget; `Int.max` skips measuring.
    ///   - encoding: The encoding that measures them.
    /// - Returns: The prefix.
    static func prefix(
        of events: [ReportEvent],
        maxBytes: Int,
        encoding: EventBatchEncoding = .actuate
    ) -> [ReportEvent] {
        guard maxBytes != .max else { return events }
        var sizer = EventBatchEncoding.Sizer(encoding)
        var bytes = 0
        for (index, event) in events.enumerated() {
            bytes += sizer.size(of: event) + 1
            if index > 0, bytes > maxBytes { return Array(events[..<index]) }
        }
        return events
    }

    /// The `maxBytes` to ask a store for so that the batch body fits in `maxBatchBytes`.
    /// - Parameters:
    ///   - maxBatchBytes: The most bytes in one request body.
    ///   - encoding: The body's encoding.
    /// - Returns: The budget for the events with their separators, at least 1.
    static func eventBudget(maxBatchBytes: Int, encoding: EventBatchEncoding) -> Int {
        max(1, maxBatchBytes - encoding.envelopeSize + 1)
    }
}
