import Synchronization

/// Reports actions that promised to complete asynchronously and have not, after a timeout on the injected
/// clock.
///
/// Deadlines are added in increasing order (the timeout is fixed and time only moves forward), so one timer
/// for the earliest deadline is enough: when it fires it reports what is overdue and arms itself for the next.
@usableFromInline
final class CompletionWatchdog: Sendable {
    private struct Tracked {
        var deadline: Duration
        var diagnostic: ActuateDiagnostic
    }

    private struct State {
        var tracked: [UInt64: Tracked] = [:]
        var timerArmed = false
    }

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
    func track(id: UInt64, start: Duration, summary: @autoclosure () -> ActuateDiagnostic) {
        guard let timeout else { return }
        let tracked = Tracked(deadline: start + timeout, diagnostic: summary())
        let armAt = state.withLock { state -> Duration? in
            state.tracked[id] = tracked
            guard !state.timerArmed else { return nil }
            state.timerArmed = true
            return tracked.deadline
        }
        if let armAt { arm(at: armAt) }
    }

    /// Stops watching request `id`.
    @usableFromInline
    func untrack(id: UInt64) {
        guard timeout != nil else { return }
        _ = state.withLock { $0.tracked.removeValue(forKey: id) }
    }

    /// The number of requests being watched.
    var trackedCount: Int {
        state.withLock { $0.tracked.count }
    }

    private func arm(at deadline: Duration) {
        let delay = deadline - scheduler.uptime()
        scheduler.schedule(after: delay) { [weak self] in self?.fire() }
    }

    private func fire() {
        let now = scheduler.uptime()
        let (overdue, next) = state.withLock { state -> ([ActuateDiagnostic], Duration?) in
            let overdueIDs = state.tracked.filter { $0.value.deadline <= now }.keys.sorted()
            let overdue = overdueIDs.compactMap { state.tracked.removeValue(forKey: $0)?.diagnostic }
            let next = state.tracked.values.map(\.deadline).min()
            state.timerArmed = next != nil
            return (overdue, next)
        }
        for diagnostic in overdue { diagnostics.report(diagnostic) }
        if let next { arm(at: next) }
    }
}
