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

    /// Creates an empty shard that holds at most `capacity` records.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Appends `record`, evicting this shard's oldest when it is full.
    ///
    /// Takes the record: made in the call, it moves into the buffer without a copy.
    mutating func append(_ record: consuming TimelineRecord) {
        if buffer == nil { buffer = RingBuffer(capacity: capacity) }
        buffer!.append(record)
    }

    /// Records the outcome on the newest record of `requestID`, if it is still held.
    ///
    /// Looks back from the newest record and changes the one it finds in one pass, in place: no record is
    /// copied, and no second index of request ids is kept up to date on every append.
    mutating func complete(requestID: UInt64, outcome: TimelineOutcome, durationNanoseconds: UInt64?) {
        buffer?.updateNewest { record in
            guard record.requestID == requestID else { return false }
            record.outcome = outcome
            record.durationNanoseconds = durationNanoseconds
            return true
        }
    }

    /// The records held now, oldest first.
    var records: [TimelineRecord] {
        buffer?.elements ?? []
    }

    /// Removes every record.
    mutating func clear() {
        buffer?.removeAll()
    }
}
