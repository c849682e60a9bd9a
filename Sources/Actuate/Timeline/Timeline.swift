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

    private struct State {
        var entries: RingBuffer<TimelineEntry>
        var inFlight: [UInt64: (sequence: UInt64, start: Duration)] = [:]
    }

    private let state: Mutex<State>
    private let scheduler: any ActuateScheduler

    /// Creates a timeline.
    ///
    /// - Parameters:
    ///   - maxEntries: The most entries kept; older ones are evicted.
    ///   - scheduler: The clock that measures durations.
    public init(maxEntries: Int = Timeline.defaultMaxEntries, scheduler: any ActuateScheduler = SystemScheduler.shared) {
        self.state = Mutex(State(entries: RingBuffer(capacity: maxEntries)))
        self.scheduler = scheduler
    }

    /// The most entries kept.
    public var maxEntries: Int { state.withLock { $0.entries.capacity } }

    public func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        guard !request.action.hideFromTimeline else { return }
        let entry = TimelineEntry(
            requestID: request.uniqueID,
            actionName: request.action.name,
            featureName: request.feature.name,
            featurePath: request.feature.path.description,
            sessionName: request.sessionName,
            inputDescription: request.inputDescription,
            userInitiated: request.userInitiated,
            source: request.source,
            date: request.date,
            outcome: nil,
            duration: nil
        )
        let start = scheduler.uptime()
        state.withLock { state in
            let sequence = state.entries.append(entry)
            state.inFlight[request.uniqueID] = (sequence, start)
        }
    }

    public func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        guard !request.action.hideFromTimeline else { return }
        let end = scheduler.uptime()
        let recorded = TimelineOutcome(outcome)
        state.withLock { state in
            guard let (sequence, start) = state.inFlight.removeValue(forKey: request.uniqueID) else { return }
            state.entries.update(sequence: sequence) { entry in
                entry.outcome = recorded
                entry.duration = (end - start).seconds
            }
        }
    }

    /// The entries held now, oldest first.
    public func snapshot() -> [TimelineEntry] {
        state.withLock { $0.entries.elements }
    }

    /// Removes every entry.
    public func clear() {
        state.withLock { state in
            state.entries.removeAll()
            state.inFlight.removeAll()
        }
    }

    /// The entries as JSON: an array that decodes back to `[TimelineEntry]`.
    public func jsonDump() throws -> Data {
        try TimelineFormatter.encoder.encode(snapshot())
    }

    /// The entries as readable text, one line per action, failures marked.
    public func textDump() -> String {
        TimelineFormatter.text(for: snapshot())
    }

    public var debugReportSectionName: String { "timeline" }
    public var debugReportOrder: Int { 0 }
    public func debugReportJSON() throws -> Data { try jsonDump() }
    public func debugReportText() -> String { textDump() }
}
