import ActuateCore
import Foundation

/// What the timeline keeps per action: plain fields and references to process-lifetime metadata, no string
/// built per dispatch. `TimelineEntry` values are made from records only when someone reads the timeline.
struct TimelineRecord: Sendable {
    var requestID: UInt64
    var date: Date
    var feature: MetadataReference<FeatureMetadata>
    var action: MetadataReference<ActionMetadata>
    var sessionName: String
    var inputDescription: String
    var userInitiated: Bool
    var source: ActionSource
    var startUptimeNanoseconds: UInt64
    var outcome: TimelineOutcome?
    var durationNanoseconds: UInt64?

    var entry: TimelineEntry {
        TimelineEntry(
            requestID: requestID,
            sessionName: sessionName,
            featureName: feature.metadata.name,
            featurePath: feature.metadata.path.description,
            actionName: action.metadata.name,
            queueLabel: action.metadata.queueLabel,
            inputDescription: inputDescription,
            userInitiated: userInitiated,
            source: source,
            startDate: ReportDate.rounded(date),
            startOffsetNanoseconds: startUptimeNanoseconds,
            durationNanoseconds: durationNanoseconds,
            outcome: outcome
        )
    }

    /// The order in which the timeline shows records: by start on the dispatcher's monotonic clock, then by
    /// request id (requests of one dispatcher get increasing ids).
    static func startsBefore(_ first: TimelineRecord, _ second: TimelineRecord) -> Bool {
        (first.startUptimeNanoseconds, first.requestID) < (second.startUptimeNanoseconds, second.requestID)
    }
}

/// One shard of a ``Timeline``: the records of the actions of the queues that map to it, kept in a
/// `QueueShardedState`, which puts each shard behind its own lock.
///
/// Actions on different queues append to different shards, so independent queues never wait for each other
/// or share a cache line; reading the timeline merges the shards.
struct TimelineShard: Sendable {
    /// The most records this shard holds.
    let capacity: Int
    /// Allocated on the first append, so that shards no queue maps to cost no memory.
    private var buffer: RingBuffer<TimelineRecord>?
    /// The request id of each record, by sequence number, so that completion finds its record by looking
    /// back through plain integers rather than copying records.
    private var requestIDs: [UInt64] = []
    private var newestSequence: UInt64?

    /// Creates an empty shard that holds at most `capacity` records.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Appends `record`, evicting this shard's oldest when it is full.
    ///
    /// Takes the record: made in the call, it moves into the buffer without a copy.
    mutating func append(_ record: consuming TimelineRecord) {
        if buffer == nil {
            buffer = RingBuffer(capacity: capacity)
            requestIDs = Array(repeating: 0, count: buffer!.capacity)
        }
        let requestID = record.requestID
        let sequence = buffer!.append(record)
        requestIDs[Int(sequence % UInt64(requestIDs.count))] = requestID
        newestSequence = sequence
    }

    /// Records the outcome on the newest record of `requestID`, if it is still held.
    mutating func complete(requestID: UInt64, outcome: TimelineOutcome, durationNanoseconds: UInt64?) {
        guard let sequence = sequence(of: requestID) else { return }
        buffer!.update(sequence: sequence) { record in
            record.outcome = outcome
            record.durationNanoseconds = durationNanoseconds
        }
    }

    /// The sequence number of the newest held record of `requestID`, looking back from the newest.
    private func sequence(of requestID: UInt64) -> UInt64? {
        guard let newest = newestSequence, let buffer else { return nil }
        let held = UInt64(buffer.count)
        var back: UInt64 = 0
        while back < held {
            let sequence = newest - back
            if requestIDs[Int(sequence % UInt64(requestIDs.count))] == requestID { return sequence }
            back += 1
        }
        return nil
    }

    /// The records held now, oldest first.
    var records: [TimelineRecord] {
        buffer?.elements ?? []
    }

    /// Removes every record.
    mutating func clear() {
        buffer?.removeAll()
        newestSequence = nil
    }
}
