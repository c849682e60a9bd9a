import Foundation
import Synchronization

/// Reports actions that promised to complete asynchronously and have not, after a timeout on the injected
/// clock.
///
/// Deadlines are added in increasing order (the timeout is fixed and time only moves forward), so one timer
/// for the earliest deadline is enough: when it fires it reports what is overdue and arms itself for the next.
@usableFromInline
final class CompletionWatchdog: Sendable {
    /// One watched request: what its diagnostic needs, which is built only if the request is overdue, so that
    /// watching costs no formatting on the path of the requests that complete in time.
    private struct Tracked {
        var deadline: Duration
        var action: ActionMetadata
        var feature: FeatureMetadata
        var session: String

        func diagnostic(id: UInt64, timeout: Duration) -> ActuateDiagnostic {
            ActuateDiagnostic(
                kind: .neverCompleted,
                actionName: action.name,
                featurePath: feature.path,
                sessionName: session,
                message: "The action has not completed \(String(format: "%g", timeout.seconds)) s after it began. "
                    + "Call `completed(_:)` on the status from `willCompleteAsync()` on every path, including "
                    + "errors and cancellation.",
                requestID: id
            )
        }
    }

    /// The watched requests, each in a slot of `slots` that its operation remembers, so that starting and
    /// stopping a watch costs an array store rather than a dictionary insert and remove. Freed slots are reused.
    private struct State {
        var slots: [(id: UInt64, tracked: Tracked)?] = []
        var freeSlots: [Int] = []
        var count = 0
        var timerArmed = false

        mutating func remove(slot: Int) {
            slots[slot] = nil
            freeSlots.append(slot)
            count -= 1
        }
    }

    /// The slot of an operation that is not being watched.
    @usableFromInline static var unwatched: Int { -1 }
    /// The slot of an operation that completed asynchronously: a watch that starts after it stops at once.
    @usableFromInline static var completedAsynchronously: Int { -2 }

    private let scheduler: any ActuateScheduler
    private let diagnostics: any ActuateDiagnostics
    let timeout: Duration?
    /// Whether requests are watched at all; read on every dispatch.
    @usableFromInline let isEnabled: Bool
    private let state = Mutex(State())

    init(scheduler: any ActuateScheduler, diagnostics: any ActuateDiagnostics, timeout: Duration?) {
        self.scheduler = scheduler
        self.diagnostics = diagnostics
        self.timeout = timeout
        self.isEnabled = timeout != nil
    }

    /// Starts watching request `id`, which began at `start` on the scheduler's monotonic clock.
    ///
    /// - Returns: The slot to hand to ``untrack(id:slot:)``, or ``unwatched`` when nothing is watched.
    func track(
        id: UInt64,
        start: Duration,
        action: ActionMetadata,
        feature: FeatureMetadata,
        session: String
    ) -> Int {
        guard let timeout else { return Self.unwatched }
        let tracked = Tracked(deadline: start + timeout, action: action, feature: feature, session: session)
        let (slot, armAt) = state.withLock { state -> (Int, Duration?) in
            let slot: Int
            if let free = state.freeSlots.popLast() {
                slot = free
                state.slots[slot] = (id, tracked)
            } else {
                slot = state.slots.count
                state.slots.append((id, tracked))
            }
            state.count += 1
            guard !state.timerArmed else { return (slot, nil) }
            state.timerArmed = true
            return (slot, tracked.deadline)
        }
        if let armAt { arm(at: armAt) }
        return slot
    }

    /// Stops watching request `id` in `slot`; does nothing if the watch already reported it overdue (the slot
    /// may then hold another request).
    @usableFromInline
    func untrack(id: UInt64, slot: Int) {
        state.withLock { state in
            guard state.slots[slot]?.id == id else { return }
            state.remove(slot: slot)
        }
    }

    /// The number of requests being watched.
    var trackedCount: Int {
        state.withLock { $0.count }
    }

    /// The deadlines of the requests being watched, earliest first, for tests.
    var trackedDeadlines: [Duration] {
        state.withLock { $0.slots.compactMap { $0?.tracked.deadline }.sorted() }
    }

    private func arm(at deadline: Duration) {
        let delay = deadline - scheduler.uptime()
        scheduler.schedule(after: delay) { [weak self] in self?.fire() }
    }

    private func fire() {
        let now = scheduler.uptime()
        let (overdue, next) = state.withLock { state -> ([(UInt64, Tracked)], Duration?) in
            var overdue: [(UInt64, Tracked)] = []
            for slot in state.slots.indices {
                guard let entry = state.slots[slot], entry.tracked.deadline <= now else { continue }
                overdue.append((entry.id, entry.tracked))
                state.remove(slot: slot)
            }
            overdue.sort { $0.0 < $1.0 }
            let next = state.slots.compactMap { $0?.tracked.deadline }.min()
            state.timerArmed = next != nil
            return (overdue, next)
        }
        if let timeout {
            for (id, tracked) in overdue { diagnostics.report(tracked.diagnostic(id: id, timeout: timeout)) }
        }
        if let next { arm(at: next) }
    }
}
