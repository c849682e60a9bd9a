import Synchronization

/// Lets one async action body at a time run on a queue, in arrival order, so that async bodies of one queue
/// never interleave at suspension points, just as callback bodies of a serial queue never overlap.
///
/// A hold on a gate lasts across the body's suspensions, so two rules keep holds from deadlocking:
/// - **Nested bodies share their ancestors' holds.** A body performed from within another body (directly, or
///   through any chain of nested bodies on any queues) never waits for a gate that one of the bodies it is
///   nested in holds: it runs under that hold, at one of the ancestor's suspension points.
/// - **No waiting in a circle.** A body never waits for a hold whose holder is itself waiting, through any
///   chain of holds and waits, for one of the body's own ancestors: it shares that hold too. Unrelated bodies
///   that do not wait for each other still take turns in arrival order.
///
/// The state of every gate is guarded by one process-wide lock, and the gates that have waiters are listed in one
/// table, so that the circle check sees every wait. They are touched only when an async body starts and ends,
/// never on the dispatch path of callback actions.
@usableFromInline
final class AsyncSerialGate: @unchecked Sendable {
    // Safe: `state` is read and written only under GateTable's lock.
    /// The gate's hold, the bodies running under it and the bodies waiting for it; nil while the gate is free.
    fileprivate var state: GateTable.GateState?

    /// Runs `body` once the gate lets it: at once when the gate is free or the body may share its hold,
    /// otherwise after the bodies that arrived before it.
    ///
    /// - Parameters:
    ///   - nesting: The holds of the bodies the caller is nested in.
    ///   - body: The action's body; it runs with ``ActionNesting/current`` set to its own nesting.
    /// - Returns: What `body` returns.
    @inline(__always)
    nonisolated(nonsending) func withGate<T: Sendable>(
        nestedIn nesting: ActionNesting?,
        _ body: nonisolated(nonsending) @Sendable () async -> T
    ) async -> T {
        // A body that does not have to wait (the gate is free, or it may share the hold) enters without a
        // continuation and without another async call; only one that must wait makes one.
        let inside: ActionNesting?
        if case .entered(let entered) = GateTable.enter(self, nestedIn: nesting, continuation: nil) {
            inside = entered
        } else {
            inside = await waitForTurn(nestedIn: nesting)
        }
        let result = await ActionNesting.$current.withValue(inside) { await body() }
        GateTable.leave(self)
        return result
    }

    /// The number of bodies waiting for the gate.
    var waitingCount: Int {
        GateTable.waitingCount(self)
    }

    /// Waits for the gate with a continuation, asking the table again with it (the gate may have been
    /// released since the first ask); returns the nesting the body runs inside.
    private func waitForTurn(nestedIn nesting: ActionNesting?) async -> ActionNesting? {
        await withCheckedContinuation { continuation in
            switch GateTable.enter(self, nestedIn: nesting, continuation: continuation) {
            case .entered(let inside): continuation.resume(returning: inside)
            case .waiting: break
            }
        }
    }
}

/// The holders and waiters of every gate, behind one lock.
enum GateTable {
    enum Entry {
        /// The body may run now, inside this nesting.
        case entered(ActionNesting?)
        /// The body waits; its continuation is resumed with its hold when the gate is handed to it.
        case waiting
    }

    struct Waiter {
        let nesting: ActionNesting?
        let continuation: CheckedContinuation<ActionNesting?, Never>
    }

    /// One gate: its hold, the bodies running under it, and the bodies waiting in arrival order.
    struct GateState {
        var holder: ActionNesting
        var users = 1
        var waiters: [Waiter] = []
        var nextWaiter = 0

        var pendingWaiters: ArraySlice<Waiter> { waiters[nextWaiter...] }

        /// Removes and returns the waiter that arrived first, if any.
        mutating func takeNextWaiter() -> Waiter? {
            guard nextWaiter < waiters.count else { return nil }
            let next = waiters[nextWaiter]
            nextWaiter += 1
            if nextWaiter == waiters.count {
                waiters.removeAll(keepingCapacity: true)
                nextWaiter = 0
            }
            return next
        }
    }

    /// The gates that have waiters, for the circle check; the lock that guards every gate's state.
    private static let gatesWithWaiters = Mutex<[ObjectIdentifier: AsyncSerialGate]>([:])

    /// Takes or shares `gate` for a body nested in `nesting`, or queues the body behind the bodies that arrived
    /// before it. Without a continuation a body that must wait is not queued: the answer is `.waiting` and
    /// nothing changes.
    static func enter(
        _ gate: AsyncSerialGate,
        nestedIn nesting: ActionNesting?,
        continuation: CheckedContinuation<ActionNesting?, Never>?
    ) -> Entry {
        gatesWithWaiters.withLock { gatesWithWaiters in
            // A free gate is taken without a table lookup: its state is on the gate.
            guard let holder = gate.state?.holder else {
                let hold = startHold(on: gate, nestedIn: nesting)
                gate.state = GateState(holder: hold)
                return .entered(hold)
            }
            if let nesting, nesting.isWithin(holder) {
                gate.state?.users += 1
                return .entered(nesting)
            }
            if waitsFor(nesting, holder: holder, among: gatesWithWaiters) {
                gate.state?.users += 1
                return .entered(ActionNesting(gate: gate, parent: nesting, sharing: holder))
            }
            guard let continuation else { return .waiting }
            gate.state?.waiters.append(Waiter(nesting: nesting, continuation: continuation))
            gatesWithWaiters[ObjectIdentifier(gate)] = gate
            return .waiting
        }
    }

    static func leave(_ gate: AsyncSerialGate) {
        let handoff = gatesWithWaiters.withLock { gatesWithWaiters -> (Waiter, ActionNesting)? in
            guard let users = gate.state?.users else { return nil }
            guard users == 1 else {
                gate.state?.users = users - 1
                return nil
            }
            ActionNesting.activeHolds.subtract(1, ordering: .relaxed)
            guard let next = gate.state?.takeNextWaiter() else {
                gate.state = nil
                return nil
            }
            if gate.state?.pendingWaiters.isEmpty == true {
                gatesWithWaiters[ObjectIdentifier(gate)] = nil
            }
            let hold = startHold(on: gate, nestedIn: next.nesting)
            gate.state?.holder = hold
            gate.state?.users = 1
            return (next, hold)
        }
        if let (waiter, hold) = handoff { waiter.continuation.resume(returning: hold) }
    }

    static func waitingCount(_ gate: AsyncSerialGate) -> Int {
        gatesWithWaiters.withLock { _ in gate.state?.pendingWaiters.count ?? 0 }
    }

    private static func startHold(on gate: AsyncSerialGate, nestedIn nesting: ActionNesting?) -> ActionNesting {
        ActionNesting.activeHolds.add(1, ordering: .relaxed)
        return ActionNesting(gate: gate, parent: nesting)
    }

    /// Whether `holder` is one of the holds `nesting` is nested in, or waits for one of them: its body, or a
    /// body nested in it, waits for a gate whose holder is, or waits for, one of them, and so on.
    private static func waitsFor(
        _ nesting: ActionNesting?,
        holder: ActionNesting,
        among gatesWithWaiters: [ObjectIdentifier: AsyncSerialGate]
    ) -> Bool {
        guard let nesting else { return false }
        var frontier = [holder]
        var visited: Set<ObjectIdentifier> = []
        while let hold = frontier.popLast() {
            if nesting.isWithin(hold) { return true }
            guard visited.insert(ObjectIdentifier(hold)).inserted else { continue }
            for case let state? in gatesWithWaiters.values.lazy.map(\.state)
            where state.pendingWaiters.contains(where: { $0.nesting?.isWithin(hold) == true }) {
                frontier.append(state.holder)
            }
        }
        return false
    }
}
