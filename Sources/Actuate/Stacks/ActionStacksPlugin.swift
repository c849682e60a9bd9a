import Foundation
import Synchronization

/// A plugin that groups the actions of each session and feature into stacks, to show what the user did in a
/// feature before a bug.
///
/// Stacks are keyed by session *and* feature: the same feature used in two sessions gives two stacks. An
/// action of feature B performed while a stack of feature A is open in the same session records A's stack
/// as its parent. Memory is bounded: each stack keeps its newest `maxEntriesPerStack` entries, closed stacks
/// are kept in a ring of `maxClosedStacks`, and at most `maxOpenStacks` stay open (the idlest is closed
/// as ``ActionStack/CloseReason/evicted`` to make room). Appending and evicting are O(1).
///
/// Actions with ``Action/hideFromTimeline`` are not recorded, but a feature-terminating outcome of one still
/// closes its feature's stack.
///
/// ```swift
/// let stacks = ActionStacksPlugin()
/// dispatcher.add(observer: stacks)
/// debugReport.register(stacks)
/// ```
public final class ActionStacksPlugin: ActionDispatchObserver, DebugReportable {
    /// The default most entries per stack.
    public static let defaultMaxEntriesPerStack = 100
    /// The default most closed stacks kept.
    public static let defaultMaxClosedStacks = 50
    /// The default most stacks open at once.
    public static let defaultMaxOpenStacks = 100

    /// A stack's key: the session and the feature's metadata, by identity, which is cheaper to hash than its
    /// path (metadata lives for the process, so an identity is never reused for another feature).
    private struct Key: Hashable {
        var session: String
        var feature: Int
    }

    private struct OpenStack {
        var id: UInt64
        var parentID: UInt64?
        var featureName: String
        var featurePath: FeaturePath
        var openedAt: Date
        var entries: RingBuffer<ActionStackEntry>
        var lastUsed: UInt64

        /// Appends `entry` in place and marks the stack used.
        /// - Returns: The stack's id and the entry's sequence number.
        mutating func append(_ entry: ActionStackEntry, usedAt counter: UInt64) -> (stackID: UInt64, sequence: UInt64) {
            lastUsed = counter
            return (id, entries.append(entry))
        }

        func closed(_ key: Key, at date: Date?, reason: ActionStack.CloseReason?) -> ActionStack {
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

    private struct InFlight {
        var key: Key
        var stackID: UInt64
        var sequence: UInt64
    }

    private struct State {
        var open: [Key: OpenStack] = [:]
        var closed: RingBuffer<ActionStack>
        var inFlight: [UInt64: InFlight] = [:]
        var nextStackID: UInt64 = 1
        var useCounter: UInt64 = 0
    }

    /// The most entries kept per stack.
    public let maxEntriesPerStack: Int
    /// The most closed stacks kept.
    public let maxClosedStacks: Int
    /// The most stacks open at once.
    public let maxOpenStacks: Int
    private let state: Mutex<State>

    /// Creates the plugin. Dates come from the clock of the dispatcher it is added to.
    ///
    /// - Parameters:
    ///   - maxEntriesPerStack: The most entries kept per stack; older ones are evicted. At least 1.
    ///   - maxClosedStacks: The most closed stacks kept; older ones are evicted. At least 1.
    ///   - maxOpenStacks: The most stacks open at once, across sessions and features. At least 1.
    public init(
        maxEntriesPerStack: Int = ActionStacksPlugin.defaultMaxEntriesPerStack,
        maxClosedStacks: Int = ActionStacksPlugin.defaultMaxClosedStacks,
        maxOpenStacks: Int = ActionStacksPlugin.defaultMaxOpenStacks
    ) {
        self.maxEntriesPerStack = max(1, maxEntriesPerStack)
        self.maxClosedStacks = max(1, maxClosedStacks)
        self.maxOpenStacks = max(1, maxOpenStacks)
        self.state = Mutex(State(closed: RingBuffer(capacity: self.maxClosedStacks)))
    }

    /// Records: ``PluginStage/observation``, after any redaction or enrichment plugins.
    public var stage: PluginStage { .observation }

    public func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) {
        guard !request.header.action._withUnsafeGuaranteedRef({ $0.hideFromTimeline }) else { return }
        let key = Key(session: request.sessionName, feature: Int(bitPattern: request.header.feature.toOpaque()))
        let entry = ActionStackEntry(
            requestID: request.uniqueID,
            actionName: request.action.name,
            inputDescription: request.inputDescription,
            source: request.source,
            userInitiated: request.userInitiated,
            date: ReportDate.rounded(request.date),
            outcome: nil
        )
        let now = entry.date
        state.withLock { state in
            state.useCounter += 1
            if state.open[key] == nil {
                let feature = request.feature
                startStack(key, featureName: feature.name, path: feature.path, at: now, in: &state, now: now)
            }
            // Mutate the stack in place: copying it out and back would copy its whole ring buffer each time.
            let counter = state.useCounter
            guard state.open[key] != nil else { return }
            let (stackID, sequence) = state.open[key]!.append(entry, usedAt: counter)
            state.inFlight[request.uniqueID] = InFlight(key: key, stackID: stackID, sequence: sequence)
        }
    }

    public func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        let key = Key(session: request.sessionName, feature: Int(bitPattern: request.header.feature.toOpaque()))
        let hidden = request.header.action._withUnsafeGuaranteedRef { $0.hideFromTimeline }
        let terminates = outcome.terminatesFeature
        guard !hidden || terminates else { return }
        let recorded = outcome.summary
        let now = ReportDate.rounded(request.completionDate ?? request.date)
        state.withLock { state in
            let flight = state.inFlight.removeValue(forKey: request.uniqueID)
            guard let stackID = state.open[key]?.id else { return }
            let isOwnStack = flight.map { $0.stackID == stackID } ?? hidden
            guard isOwnStack else { return }
            if let flight {
                state.open[key]!.entries.update(sequence: flight.sequence) { $0.outcome = recorded }
            }
            if terminates, let stack = state.open.removeValue(forKey: key) {
                state.closed.append(stack.closed(key, at: now, reason: .featureTerminated))
            }
        }
    }

    private func startStack(
        _ key: Key,
        featureName: String,
        path: FeaturePath,
        at date: Date,
        in state: inout State,
        now: Date
    ) {
        if state.open.count >= maxOpenStacks,
            let idlest = state.open.min(by: { $0.value.lastUsed < $1.value.lastUsed })
        {
            state.open[idlest.key] = nil
            state.closed.append(idlest.value.closed(idlest.key, at: now, reason: .evicted))
        }
        let parent = state.open
            .filter { $0.key.session == key.session && $0.key.feature != key.feature }
            .max { $0.value.lastUsed < $1.value.lastUsed }
        state.open[key] = OpenStack(
            id: state.nextStackID,
            parentID: parent?.value.id,
            featureName: featureName,
            featurePath: path,
            openedAt: date,
            entries: RingBuffer(capacity: maxEntriesPerStack),
            lastUsed: state.useCounter
        )
        state.nextStackID += 1
    }

    /// The open and recently closed stacks.
    public func snapshot() -> ActionStacksSnapshot {
        state.withLock { state in
            ActionStacksSnapshot(
                open: state.open.map { $0.value.closed($0.key, at: nil, reason: nil) }.sorted { $0.id < $1.id },
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
    public func openStack(session: String, feature: FeaturePath) -> ActionStack? {
        state.withLock { state in
            state.open.first { $0.key.session == session && $0.value.featurePath == feature }
                .map { $0.value.closed($0.key, at: nil, reason: nil) }
        }
    }

    /// Removes every stack, open or closed.
    public func clear() {
        state.withLock { state in
            state.open.removeAll()
            state.closed.removeAll()
            state.inFlight.removeAll()
        }
    }

    /// The stacks as JSON: an object that decodes back to ``ActionStacksSnapshot``.
    ///
    /// - Throws: An encoding error, which the types used here never produce.
    public func jsonDump() throws -> Data {
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
