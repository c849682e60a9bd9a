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

    /// The record of a request that begins now, described by its `header`.
    init(beginning header: RequestHeader) {
        requestID = header.uniqueID
        date = header.date
        feature = header.featureReference
        action = header.actionReference
        sessionName = header.sessionName
        inputDescription = header.inputDescription
        userInitiated = header.userInitiated
        source = header.source
        startUptimeNanoseconds = header.startUptimeNanoseconds
        outcome = nil
        durationNanoseconds = nil
    }

    /// Turns this record, in place, into the record of a request that begins now: each field is replaced on its
    /// own, so the old record is released field by field, in code specialized for it, never destroyed whole.
    ///
    /// A string that is the very same string as before (the same bits: the same small string, or the same
    /// storage, as a session's name is from one request to the next) is kept rather than replaced, which would
    /// count a reference to it and release another. A source without a payload is assigned as a literal: copying
    /// the enum goes through its value witnesses, about 40 instructions.
    mutating func reset(beginning header: RequestHeader) {
        requestID = header.uniqueID
        date = header.date
        feature = header.featureReference
        action = header.actionReference
        if !Self.isSameString(sessionName, header.sessionName) { sessionName = header.sessionName }
        if !Self.isSameString(inputDescription, header.inputDescription) { inputDescription = header.inputDescription }
        userInitiated = header.userInitiated
        switch header.source {
        case .application: source = .application
        case .openURL: source = .openURL
        case .intent: source = .intent
        case .continueActivity: source = header.source
        }
        startUptimeNanoseconds = header.startUptimeNanoseconds
        outcome = nil
        durationNanoseconds = nil
    }

    /// Whether `first` and `second` are the very same string (``StringIdentity``).
    @inline(__always)
    private static func isSameString(_ first: borrowing String, _ second: borrowing String) -> Bool {
        StringIdentity.isSameRepresentation(first, second)
    }

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
    /// request id, which follows the order of dispatch on one queue, and on every queue with a scheduler other than
    /// the system one, as in tests (see `ActionRequest.uniqueID`).
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

    /// Appends the record of the request `header` describes, evicting this shard's oldest when it is full: the
    /// evicted record becomes the new one in place (see `RingBuffer.append(making:overwriting:)`).
    mutating func append(beginning header: RequestHeader) {
        if buffer == nil { buffer = RingBuffer(capacity: capacity) }
        buffer!.append(
            making: { TimelineRecord(beginning: header) },
            overwriting: { $0.reset(beginning: header) }
        )
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
