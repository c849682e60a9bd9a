import Synchronization

/// One async action body's hold on its queue's gate, linked to the holds of the bodies it is nested in.
///
/// A body that shares a hold it is not nested in (to break a circle of waits, see ``AsyncSerialGate``) runs
/// inside a node that records the shared hold too, so that what it waits for counts as the holder's waiting.
///
/// An action performed from within another action's body is nested in it. When the perform has to hop onto
/// the action's queue, the dispatcher captures the caller's nesting first and runs the action inside it
/// again, so the link survives hops across queues, which a task-local alone does not: a body that runs on
/// another queue starts in a fresh task, or in no task at all.
///
/// Where the current code is nested:
/// - In an async body, and in every task it creates, ``current`` (a task-local) holds its hold.
/// - In a callback body that the dispatcher hopped onto its queue, the dispatcher binds ``current`` for the
///   synchronous part of the body.
/// - Work that a body hands to a dispatch queue or a thread of its own carries no task-locals, so an action
///   it performs there is not nested; perform from the body itself, or from a task it creates.
@usableFromInline
final class ActionNesting: Sendable {
    /// The gate this hold is on.
    let gate: AsyncSerialGate
    /// The hold of the body this one is nested in.
    let parent: ActionNesting?
    /// The hold this body shares without being nested in it, if any.
    let sharing: ActionNesting?

    /// The innermost hold the current task, or the current callback body, is nested in.
    @TaskLocal static var current: ActionNesting?

    /// The number of holds that exist anywhere in the process, so that a dispatch reads ``current`` only
    /// when there can be something to find: most dispatches pay one relaxed load and no task-local read.
    @usableFromInline static let activeHolds = Atomic<Int>(0)

    init(gate: AsyncSerialGate, parent: ActionNesting?, sharing: ActionNesting? = nil) {
        self.gate = gate
        self.parent = parent
        self.sharing = sharing
    }

    /// The nesting of the code that is performing an action now, or nil when no async body holds a gate.
    @inlinable
    static func ofCaller() -> ActionNesting? {
        activeHolds.load(ordering: .relaxed) == 0 ? nil : currentForDispatch()
    }

    /// Reads ``current``; kept out of line, off the common dispatch path.
    @usableFromInline
    static func currentForDispatch() -> ActionNesting? {
        current
    }

    /// Runs a callback body that the dispatcher hopped onto its queue inside `nesting`.
    @usableFromInline
    static func run(inside nesting: ActionNesting, _ body: () -> Void) {
        $current.withValue(nesting, operation: body)
    }

    /// Whether `hold` is this hold, one it is nested in, or one that it or they share.
    func isWithin(_ hold: ActionNesting) -> Bool {
        self === hold || parent?.isWithin(hold) == true || sharing?.isWithin(hold) == true
    }
}
