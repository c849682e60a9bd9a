import Foundation

/// The actions one session performed in one feature, in order, until the feature's use ended.
///
/// A stack opens with the first action of a feature in a session and closes when an action of it completes
/// with ``ActionPerformOutcome/successWithFeatureTermination`` or
/// ``ActionPerformOutcome/failureWithFeatureTermination(error:)``; the next action of that feature in that
/// session opens a new stack. Dates come from the dispatcher's clock, kept to the microsecond as debug reports
/// write them.
public struct ActionStack: Sendable, Hashable, Codable, Identifiable {
    /// Why a stack was closed.
    public enum CloseReason: String, Sendable, Hashable, Codable, CustomStringConvertible {
        /// An action ended the feature's use.
        case featureTerminated
        /// Too many stacks were open, and this one had been idle the longest.
        case evicted

        public var description: String {
            switch self {
            case .featureTerminated: "feature terminated"
            case .evicted: "evicted"
            }
        }
    }

    /// The stack's identifier, unique within its `ActionStacksPlugin`.
    public var id: UInt64
    /// The stack of another feature that was open, and most recently used, in the same session when this one
    /// opened.
    public var parentID: UInt64?
    /// The session the actions ran in.
    public var sessionName: String
    /// The feature's display name.
    public var featureName: String
    /// The feature's identifier.
    public var featurePath: FeaturePath
    /// When the first action was requested.
    public var openedAt: Date
    /// When the stack closed, or `nil` while it is open.
    public var closedAt: Date?
    /// Why the stack closed, or `nil` while it is open.
    public var closeReason: CloseReason?
    /// The actions, oldest first; at most the plugin's `maxEntriesPerStack`.
    public var entries: [ActionStackEntry]
    /// How many older entries were evicted because the stack was full.
    public var evictedEntryCount: Int

    /// Whether the stack is still open.
    package var isOpen: Bool { closedAt == nil }

    /// Creates a stack.
    ///
    /// - Parameters:
    ///   - id: The stack's identifier.
    ///   - parentID: The stack of another feature open in the same session when this one opened.
    ///   - sessionName: The session the actions ran in.
    ///   - featureName: The feature's display name.
    ///   - featurePath: The feature's identifier.
    ///   - openedAt: When the first action was requested.
    ///   - closedAt: When the stack closed, or `nil` while it is open.
    ///   - closeReason: Why the stack closed, or `nil` while it is open.
    ///   - entries: The actions, oldest first.
    ///   - evictedEntryCount: How many older entries were evicted.
    public init(
        id: UInt64,
        parentID: UInt64?,
        sessionName: String,
        featureName: String,
        featurePath: FeaturePath,
        openedAt: Date,
        closedAt: Date?,
        closeReason: CloseReason?,
        entries: [ActionStackEntry],
        evictedEntryCount: Int
    ) {
        self.id = id
        self.parentID = parentID
        self.sessionName = sessionName
        self.featureName = featureName
        self.featurePath = featurePath
        self.openedAt = openedAt
        self.closedAt = closedAt
        self.closeReason = closeReason
        self.entries = entries
        self.evictedEntryCount = evictedEntryCount
    }
}

/// One action in an ``ActionStack``.
public struct ActionStackEntry: Sendable, Hashable, Codable {
    /// The request's unique identifier.
    public var requestID: UInt64
    /// The action's display name.
    public var actionName: String
    /// The input's ``Loggable/loggingDescription``.
    public var inputDescription: String
    /// Where the request came from.
    @usableFromInline package var source: ActionSource
    /// Whether the user asked for it directly.
    @usableFromInline package var userInitiated: Bool
    /// When it was requested.
    @usableFromInline package var date: Date
    /// How it ended, once it has.
    public var outcome: TimelineOutcome?

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - requestID: The request's unique identifier.
    ///   - actionName: The action's display name.
    ///   - inputDescription: The input's ``Loggable/loggingDescription``.
    ///   - source: Where the request came from.
    ///   - userInitiated: Whether the user asked for it directly.
    ///   - date: When it was requested.
    ///   - outcome: How it ended, once it has.
    @inlinable
    public init(
        requestID: UInt64,
        actionName: String,
        inputDescription: String,
        source: ActionSource,
        userInitiated: Bool,
        date: Date,
        outcome: TimelineOutcome?
    ) {
        self.requestID = requestID
        self.actionName = actionName
        self.inputDescription = inputDescription
        self.source = source
        self.userInitiated = userInitiated
        self.date = date
        self.outcome = outcome
    }
}

/// The stacks an `ActionStacksPlugin` holds at one moment.
public struct ActionStacksSnapshot: Sendable, Hashable, Codable {
    /// The open stacks, in the order they opened.
    public var open: [ActionStack]
    /// The most recently closed stacks, oldest first.
    public var closed: [ActionStack]

    /// Creates a snapshot.
    ///
    /// - Parameters:
    ///   - open: The open stacks, in the order they opened.
    ///   - closed: The most recently closed stacks, oldest first.
    public init(open: [ActionStack], closed: [ActionStack]) {
        self.open = open
        self.closed = closed
    }

    /// Every stack, open or closed, of one session.
    ///
    /// - Parameter session: The session's name.
    /// - Returns: The closed stacks, oldest first, then the open ones.
    package func stacks(inSession session: String) -> [ActionStack] {
        (closed + open).filter { $0.sessionName == session }
    }

    /// The stack with an identifier, if it is still held.
    ///
    /// - Parameter id: The stack's identifier.
    /// - Returns: The stack, or `nil` once it has been evicted.
    package func stack(id: UInt64) -> ActionStack? {
        open.first { $0.id == id } ?? closed.first { $0.id == id }
    }
}
