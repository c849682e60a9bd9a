import ActuateCore
import Foundation
import Synchronization

/// A plugin that records the most recent actions, for debugging a session after the fact.
///
/// It keeps at most `maxEntries` entries in a ring buffer: appending and evicting are O(1) and memory stays
/// flat however many actions run. Actions with `Action.hideFromTimeline` are left out.
///
/// ```swift
/// let timeline = Timeline(maxEntries: 500)
/// dispatcher.add(plugin: timeline)
/// // ... perform actions ...
/// print(timeline.textDump())
/// ```
public final class Timeline: ActionDispatchPlugin, DebugReportable {
    /// The default capacity: the `maxEntries` default of ``init(maxEntries:)``.
    static let defaultMaxEntries = 100

    /// The number of shards; a power of two.
    static let shardCount = 16

    /// The shards, by `RequestHeader.queueIndex`: actions on independent queues record under independent
    /// locks. Each shard keeps up to `maxEntries` records, so the newest `maxEntries` of all of them, which a
    /// read merges, are exactly the newest `maxEntries` the timeline has seen.
    private let shards: QueueShardedState<TimelineShard>
    /// `hidden`, held here so that a dispatch reads it with one load rather than a lazy global's check.
    private let hiddenTrait = Timeline.hidden

    /// The most entries kept.
    let maxEntries: Int

    /// Creates a timeline. Dates and durations come from the clock of the dispatcher it is added to.
    ///
    /// - Parameter maxEntries: The most entries kept; older ones are evicted.
    public init(maxEntries: Int = 100) {
        self.maxEntries = max(1, maxEntries)
        let capacity = max(1, maxEntries)
        self.shards = QueueShardedState(shardCount: Self.shardCount) { TimelineShard(capacity: capacity) }
    }

    /// The actions left out: those with `Action.hideFromTimeline`, resolved once per action type.
    static let hidden = ActionTrait<Bool>("hideFromTimeline") { action in action.hideFromTimeline ? true : nil }

    // Both callbacks read only the request's header and completion reading, stored properties that need no
    // generic metadata, keep the feature and action as references that count nothing, and reach their queue's
    // shard without counting a reference (`QueueShardedState`).

    public func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        let header = request.header
        guard !header.hasTrait(hiddenTrait) else { return }
        // The record is made inside the shard's lock, in its ring buffer's slot: once the shard is full, from the
        // evicted record, in place.
        shards.withState(queueIndex: header.queueIndex) { shard in shard.append(beginning: header) }
    }

    /// Records the outcome on the action's record.
    ///
    /// The record is found in its queue's shard by looking back from the newest: O(k), where k is the number
    /// of actions that began on that shard while this one ran (zero for an action that completes
    /// synchronously). Appending and evicting stay O(1).
    public func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        let header = request.header
        guard !header.hasTrait(hiddenTrait) else { return }
        let requestID = header.uniqueID
        let summary = outcome.summary
        let duration = header.durationNanoseconds(completedAt: request.completionUptimeNanoseconds)
        shards.withState(queueIndex: header.queueIndex) {
            $0.complete(requestID: requestID, outcome: summary, durationNanoseconds: duration)
        }
    }

    /// The newest `maxEntries` records of every shard, merged in start order.
    func mergedRecords() -> [TimelineRecord] {
        var merged = shards.mapStates { $0.records }.flatMap { $0 }
        merged.sort(by: TimelineRecord.startsBefore)
        return Array(merged.suffix(maxEntries))
    }

    /// The number of records each shard holds, for tests.
    func recordCountsByShard() -> [Int] {
        shards.mapStates { $0.records.count }
    }

    /// The entries held now, oldest first.
    public func snapshot() -> [TimelineEntry] {
        mergedRecords().map(\.entry)
    }

    /// Removes every entry.
    public func clear() {
        _ = shards.mapStates { $0.clear() }
    }

    /// The entries held now and the capacity, as the timeline section of a debug report.
    func dump() -> TimelineDump {
        TimelineDump(maxEntries: maxEntries, entries: snapshot())
    }

    /// The entries as JSON in debug report format 1: `formatVersion`, `maxEntries` and `entries`, which
    /// `DebugReportDecoder.decodeTimeline(from:)` reads back.
    ///
    /// - Returns: The JSON document.
    /// - Throws: An encoding error, which the types used here never produce.
    public func jsonDump() throws -> Data {
        let dump = dump()
        return try DebugReport.makeJSONEncoder().encode(
            VersionedTimelineDump(
                formatVersion: DebugReport.formatVersion,
                maxEntries: dump.maxEntries,
                entries: dump.entries
            )
        )
    }

    /// The entries as readable text, one line per action, failures marked.
    public func textDump() -> String {
        TimelineFormatter.text(for: snapshot())
    }

    public var debugReportSectionName: String { "timeline" }
    public var debugReportOrder: Int { 0 }
    /// The `timeline` section: `maxEntries` and `entries`.
    ///
    /// - Returns: The section as JSON.
    /// - Throws: An encoding error, which the types used here never produce.
    public func debugReportJSON() throws -> Data { try DebugReport.makeJSONEncoder().encode(dump()) }
    public func debugReportText() -> String { textDump() }
}

/// A timeline dump written on its own, with the format version that debug reports carry at their top.
struct VersionedTimelineDump: Codable {
    var formatVersion: Int
    var maxEntries: Int
    var entries: [TimelineEntry]
}
