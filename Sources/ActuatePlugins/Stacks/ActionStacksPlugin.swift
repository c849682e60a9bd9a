import ActuateCore
import Foundation
import Synchronization

/// A plugin that groups the actions of each session and feature into stacks, to show what the user did in a
/// feature before a bug.
///
/// Stacks are keyed by session *and* feature: the same feature used in two sessions gives two stacks. An
/// action of feature B performed while a stack of feature A is open in the same session records A's stack
/// as its parent. Memory is bounded: each stack keeps its newest `maxEntriesPerStack` entries, closed stacks
/// are kept in a ring of `maxClosedStacks`, and at most `maxOpenStacks` stay open (the idlest is closed
/// as `ActionStack.CloseReason.evicted` to make room). Appending and evicting are O(1); a completion finds
/// its entry by looking back from its stack's newest, which is one step for an action that completes
/// synchronously and at most `maxEntriesPerStack`.
///
/// Actions with `Action.hideFromTimeline` are not recorded, but a feature-terminating outcome of one still
/// closes its feature's stack.
///
/// ```swift
/// let stacks = ActionStacksPlugin()
/// dispatcher.add(plugin: stacks)
/// debugReport.register(stacks)
/// ```
public final class ActionStacksPlugin: ActionDispatchPlugin, DebugReportable {
    /// A stack's key: the session and the feature's metadata, by identity, which is cheaper to hash than its
    /// path (metadata lives for the process, so an identity is never reused for another feature).
    private struct Key: Hashable {
        var session: String
        var feature: MetadataReference<FeatureMetadata>
    }

    private struct OpenStack {
        var key: Key
        var id: UInt64
        var parentID: UInt64?
        var featureName: String
        var featurePath: FeaturePath
        var openedAt: Date
        var entries: RingBuffer<ActionStackEntry>
        var lastUsed: UInt64

        /// Appends `entry` in place, moving it in, and marks the stack used.
        /// - Returns: The request id of the entry the stack evicted to make room, if it was full and that entry's
        ///   action had not completed yet.
        mutating func append(_ entry: consuming ActionStackEntry, usedAt counter: UInt64) -> UInt64? {
            lastUsed = counter
            return entries.append(entry) { $0.outcome == nil ? $0.requestID : nil }
        }

        func closed(at date: Date?, reason: ActionStack.CloseReason?) -> ActionStack {
            ActionStack(
                id: id,
                parentID: parentID,
                sessionName: key.session,
                featureName: featureName,
                featurePath: featurePath,
                openedAt: openedAt,
                closedAt: date,
                closeReason: reason,
                entries: entries.elements,
                evictedEntryCount: Int(entries.totalAppended) - entries.count
            )
        }
    }

    /// The stacks and what finds them.
    ///
    /// An action in flight is found at completion by looking back through its stack's entries from the newest
    /// (one step for an action that completes synchronously), so that no per-request record is kept; only an
    /// action whose entry its stack evicted before it completed is remembered, in `evictedInFlight`.
    private struct State {
        /// The open stacks, in no particular order.
        var open: [OpenStack] = []
        /// The index in `open` of each open stack.
        var indexByKey: [Key: Int] = [:]
        /// The index of the stack the last action began in: consecutive actions of one feature and session
        /// find their stack without hashing its key.
        var lastIndex = 0
        var closed: RingBuffer<ActionStack>
        /// The stack id of each action whose entry was evicted from its stack while it was in flight.
        var evictedInFlight: [UInt64: UInt64] = [:]
        var nextStackID: UInt64 = 1
        var useCounter: UInt64 = 0

        /// The index in `open` of the open stack of `key`, if there is one.
        func index(of key: Key) -> Int? {
            if lastIndex < open.count, open[lastIndex].key == key { return lastIndex }
            return indexByKey[key]
        }

        /// Removes the open stack at `index`, moving the last one into its place.
        mutating func remove(at index: Int) -> OpenStack {
            open.swapAt(index, open.count - 1)
            let stack = open.removeLast()
            indexByKey[stack.key] = nil
            if index < open.count { indexByKey[open[index].key] = index }
            return stack
        }

        mutating func removeAll() {
            open.removeAll()
            indexByKey.removeAll()
            closed.removeAll()
            evictedInFlight.removeAll()
        }
    }

    /// The most entries kept per stack.
    let maxEntriesPerStack: Int
    /// The most closed stacks kept.
    let maxClosedStacks: Int
    /// The most stacks open at once.
    let maxOpenStacks: Int
    private let state: Mutex<State>
    /// `Timeline.hidden`, held here so that a dispatch reads it with one load rather than a lazy global's check.
    private let hiddenTrait = Timeline.hidden

    /// Creates the plugin. Dates come from the clock of the dispatcher it is added to.
    ///
    /// - Parameters:
    ///   - maxEntriesPerStack: The most entries kept per stack; older ones are evicted. At least 1.
    ///   - maxClosedStacks: The most closed stacks kept; older ones are evicted. At least 1.
    ///   - maxOpenStacks: The most stacks open at once, across sessions and features. At least 1.
    public init(
        maxEntriesPerStack: Int = 100,
        maxClosedStacks: Int = 50,
        maxOpenStacks: Int = 100
    ) {
        self.maxEntriesPerStack = max(1, maxEntriesPerStack)
        self.maxClosedStacks = max(1, maxClosedStacks)
        self.maxOpenStacks = max(1, maxOpenStacks)
        self.state = Mutex(State(closed: RingBuffer(capacity: self.maxClosedStacks)))
    }

    // Both callbacks read only the request's fixed-layout fields and completion reading, which need no generic
    // metadata.

    public func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        let header = request.header
        guard !header.hasTrait(hiddenTrait) else { return }
        let key = Key(session: header.sessionName, feature: header.featureReference)
        let date = ReportDate.rounded(header.date)
        state.withLock { state in
            state.useCounter += 1
            let index = state.index(of: key) ?? startStack(key, at: date, in: &state)
            state.lastIndex = index
            // Mutate the stack in place: copying it out and back would copy its whole ring buffer each time. The
            // entry is made here and moved into the stack's ring buffer, never copied.
            let counter = state.useCounter
            let evictedInFlight = state.open[index].append(
                ActionStackEntry(
                    requestID: header.uniqueID,
                    actionName: header.actionReference.withMetadata { $0.name },
                    inputDescription: header.inputDescription,
                    source: header.source,
                    userInitiated: header.userInitiated,
                    date: date,
                    outcome: nil
                ),
                usedAt: counter
            )
            if let evictedInFlight {
                state.evictedInFlight[evictedInFlight] = state.open[index].id
            }
        }
    }

    public func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        let header = request.header
        let key = Key(session: header.sessionName, feature: header.featureReference)
        let hidden = header.hasTrait(hiddenTrait)
        let terminates = outcome.terminatesFeature
        guard !hidden || terminates else { return }
        let recorded = outcome.summary
        let requestID = header.uniqueID
        // Read only when the stack closes, so that other completions skip the date arithmetic.
        let closingDate = terminates ? Self.completionDate(of: header, at: request.completionUptimeNanoseconds) : nil
        state.withLock { state in
            let evictedStackID =
                state.evictedInFlight.isEmpty ? nil : state.evictedInFlight.removeValue(forKey: requestID)
            guard let index = state.index(of: key) else { return }
            // Hidden actions are never recorded; a recorded one is its stack's if its entry, or the record of
            // its evicted entry, is there.
            if !hidden {
                let sequence = state.open[index].entries.newestSequence { $0.requestID == requestID }
                if let sequence {
                    state.open[index].entries.update(sequence: sequence) { $0.outcome = recorded }
                } else if evictedStackID != state.open[index].id {
                    return
                }
            }
            if let closingDate {
                let now = ReportDate.rounded(closingDate)
                let stack = state.remove(at: index)
                state.closed.append(stack.closed(at: now, reason: .featureTerminated))
            }
        }
    }

    /// The request's `ActionRequest.completionDate`, or its date when it has none.
    private static func completionDate(of header: RequestHeader, at completion: UInt64?) -> Date {
        let nanoseconds = header.durationNanoseconds(completedAt: completion) ?? 0
        return header.date.addingTimeInterval(TimeInterval(nanoseconds) / 1e9)
    }

    /// Opens the stack of `key`, closing the idlest open stack first when `maxOpenStacks` are open.
    /// - Returns: The new stack's index in `state.open`.
    private func startStack(
        _ key: Key,
        at date: Date,
        in state: inout State
    ) -> Int {
        if state.open.count >= maxOpenStacks,
            let idlest = state.open.indices.min(by: { state.open[$0].lastUsed < state.open[$1].lastUsed })
        {
            let stack = state.remove(at: idlest)
            state.closed.append(stack.closed(at: date, reason: .evicted))
        }
        let parent = state.open
            .filter { $0.key.session == key.session && $0.key.feature != key.feature }
            .max { $0.lastUsed < $1.lastUsed }
        let metadata = key.feature.metadata
        state.open.append(
            OpenStack(
                key: key,
                id: state.nextStackID,
                parentID: parent?.id,
                featureName: metadata.name,
                featurePath: metadata.path,
                openedAt: date,
                entries: RingBuffer(capacity: maxEntriesPerStack),
                lastUsed: state.useCounter
            )
        )
        state.nextStackID += 1
        state.indexByKey[key] = state.open.count - 1
        return state.open.count - 1
    }

    /// The open and recently closed stacks.
    func snapshot() -> ActionStacksSnapshot {
        state.withLock { state in
            ActionStacksSnapshot(
                open: state.open.map { $0.closed(at: nil, reason: nil) }.sorted { $0.id < $1.id },
                closed: state.closed.elements
            )
        }
    }

    /// The open stack of a feature in a session, if there is one.
    ///
    /// - Parameters:
    ///   - session: The session's name.
    ///   - feature: The feature's identifier.
    /// - Returns: The stack, or `nil` when none is open.
    func openStack(session: String, feature: FeaturePath) -> ActionStack? {
        state.withLock { state in
            state.open.first { $0.key.session == session && $0.featurePath == feature }
                .map { $0.closed(at: nil, reason: nil) }
        }
    }

    /// Removes every stack, open or closed.
    public func clear() {
        state.withLock { $0.removeAll() }
    }

    /// The stacks as JSON: an object that decodes back to `ActionStacksSnapshot`.
    ///
    /// - Throws: An encoding error, which the types used here never produce.
    func jsonDump() throws -> Data {
        try DebugReport.makeJSONEncoder().encode(snapshot())
    }

    /// The stacks as readable text: open stacks, then closed ones, one line per action.
    public func textDump() -> String {
        ActionStacksFormatter.text(for: snapshot())
    }

    public var debugReportSectionName: String { "actionStacks" }
    public var debugReportOrder: Int { 10 }
    public func debugReportJSON() throws -> Data { try jsonDump() }
    public func debugReportText() -> String { textDump() }
}

/// Renders action stacks as text.
enum ActionStacksFormatter {
    static func text(for snapshot: ActionStacksSnapshot) -> String {
        var text = "Open stacks (\(snapshot.open.count)):\n"
        text += snapshot.open.isEmpty ? "  (none)\n" : snapshot.open.map(lines).joined()
        text += "Closed stacks (\(snapshot.closed.count)):\n"
        text += snapshot.closed.isEmpty ? "  (none)\n" : snapshot.closed.map(lines).joined()
        return text
    }

    private static func lines(for stack: ActionStack) -> String {
        let parent = stack.parentID.map { ", parent #\($0)" } ?? ""
        let closed =
            stack.closedAt.map { " → closed \($0.formatted(.iso8601)) (\(stack.closeReason?.description ?? ""))" }
            ?? ""
        var text =
            "  #\(stack.id) [\(stack.sessionName)] \(stack.featureName) (\(stack.featurePath))\(parent), "
            + "opened \(stack.openedAt.formatted(.iso8601))\(closed)\n"
        if stack.evictedEntryCount > 0 { text += "    … \(stack.evictedEntryCount) older actions evicted\n" }
        for entry in stack.entries {
            let input = entry.inputDescription == "none" ? "" : " (\(entry.inputDescription))"
            let outcome = entry.outcome?.description ?? "in progress"
            text += "    #\(entry.requestID) \(entry.actionName)\(input) → \(outcome)\n"
        }
        return text
    }
}
