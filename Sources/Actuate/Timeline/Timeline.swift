import Foundation
import Synchronization

/// A plugin that records the most recent actions, for debugging a session after the fact.
///
/// It keeps at most `maxEntries` entries in a ring buffer: appending and evicting are O(1) and memory stays
/// flat however many actions run. Actions with ``Action/hideFromTimeline`` are left out.
///
/// ```swift
/// let timeline = Timeline(maxEntries: 500)
/// dispatcher.add(observer: timeline)
/// ...
/// print(timeline.textDump())
/// ```
public final class Timeline: ActionDispatchObserver, DebugReportable {
    /// The default capacity.
    public static let defaultMaxEntries = 100

    /// What the timeline keeps per action: references to shared metadata rather than strings built per
    /// dispatch. ``TimelineEntry`` values are made from records only when someone reads the timeline.
    private struct Record {
        var requestID: UInt64
        var date: Date
        var feature: FeatureMetadata
        var action: ActionMetadata
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
                featureName: feature.name,
                featurePath: feature.path.description,
                actionName: action.name,
                queueLabel: action.queueLabel,
                inputDescription: inputDescription,
                userInitiated: userInitiated,
                source: source,
                startDate: ReportDate.rounded(date),
                startOffsetNanoseconds: startUptimeNanoseconds,
                durationNanoseconds: durationNanoseconds,
                outcome: outcome
            )
        }
    }

    private struct State {
        var records: RingBuffer<Record>
        /// The request id of each record, by sequence number, so that completion finds its record by looking
        /// back through plain integers rather than copying records.
        var requestIDs: [UInt64]
        var newestSequence: UInt64?

        init(capacity: Int) {
            records = RingBuffer(capacity: capacity)
            requestIDs = Array(repeating: 0, count: records.capacity)
        }

        mutating func append(_ record: Record) {
            let sequence = records.append(record)
            requestIDs[Int(sequence % UInt64(requestIDs.count))] = record.requestID
            newestSequence = sequence
        }

        /// The sequence number of the newest held record of `requestID`, looking back from the newest.
        func sequence(of requestID: UInt64) -> UInt64? {
            guard let newest = newestSequence else { return nil }
            let held = UInt64(records.count)
            var back: UInt64 = 0
            while back < held {
                let sequence = newest - back
                if requestIDs[Int(sequence % UInt64(requestIDs.count))] == requestID { return sequence }
                back += 1
            }
            return nil
        }
    }

    private let state: Mutex<State>

    /// Creates a timeline. Dates and durations come from the clock of the dispatcher it is added to.
    ///
    /// - Parameter maxEntries: The most entries kept; older ones are evicted.
    public init(maxEntries: Int = Timeline.defaultMaxEntries) {
        self.state = Mutex(State(capacity: maxEntries))
    }

    /// The most entries kept.
    public var maxEntries: Int { state.withLock { $0.records.capacity } }

    /// Records: ``PluginStage/observation``, after any redaction or enrichment plugins.
    public var stage: PluginStage { .observation }

    public func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        guard !request.action.hideFromTimeline else { return }
        let record = Record(
            requestID: request.uniqueID,
            date: request.date,
            feature: request.feature,
            action: request.action,
            sessionName: request.sessionName,
            inputDescription: request.inputDescription,
            userInitiated: request.userInitiated,
            source: request.source,
            startUptimeNanoseconds: request.startUptimeNanoseconds,
            outcome: nil,
            durationNanoseconds: nil
        )
        state.withLock { $0.append(record) }
    }

    /// Records the outcome on the action's record.
    ///
    /// The record is found by looking back from the newest: O(k), where k is the number of actions that began
    /// while this one ran (zero for an action that completes synchronously). Appending and evicting stay O(1).
    public func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        guard !request.action.hideFromTimeline else { return }
        let recorded = outcome.summary
        let duration = request.durationNanoseconds
        let id = request.uniqueID
        state.withLock { state in
            guard let sequence = state.sequence(of: id) else { return }
            state.records.update(sequence: sequence) { record in
                record.outcome = recorded
                record.durationNanoseconds = duration
            }
        }
    }

    /// The entries held now, oldest first.
    public func snapshot() -> [TimelineEntry] {
        state.withLock { $0.records.elements }.map(\.entry)
    }

    /// Removes every entry.
    public func clear() {
        state.withLock { state in
            state.records.removeAll()
            state.newestSequence = nil
        }
    }

    /// The entries held now and the capacity, as the timeline section of a debug report.
    public func dump() -> TimelineDump {
        let (capacity, records) = state.withLock { ($0.records.capacity, $0.records.elements) }
        return TimelineDump(maxEntries: capacity, entries: records.map(\.entry))
    }

    /// The entries as JSON in debug report format 1: `formatVersion`, `maxEntries` and `entries`, which
    /// ``DebugReportDecoder/decodeTimeline(from:)`` reads back.
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
