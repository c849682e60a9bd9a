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

    private struct State {
        var tracked: [UInt64: Tracked] = [:]
        var timerArmed = false
    }

    /// The dispatcher's clock.
    @usableFromInline let scheduler: any ActuateScheduler
    /// Where the dispatcher reports programmer errors.
    let diagnostics: any ActuateDiagnostics
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
    func track(id: UInt64, start: Duration, action: ActionMetadata, feature: FeatureMetadata, session: String) {
        guard let timeout else { return }
        let tracked = Tracked(deadline: start + timeout, action: action, feature: feature, session: session)
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

    /// The deadlines of the requests being watched, earliest first, for tests.
    var trackedDeadlines: [Duration] {
        state.withLock { $0.tracked.values.map(\.deadline).sorted() }
    }

    private func arm(at deadline: Duration) {
        let delay = deadline - scheduler.uptime()
        scheduler.schedule(after: delay) { [weak self] in self?.fire() }
    }

    private func fire() {
        let now = scheduler.uptime()
        let (overdue, next) = state.withLock { state -> ([(UInt64, Tracked)], Duration?) in
            let overdueIDs = state.tracked.filter { $0.value.deadline <= now }.keys.sorted()
            let overdue = overdueIDs.compactMap { id in state.tracked.removeValue(forKey: id).map { (id, $0) } }
            let next = state.tracked.values.map(\.deadline).min()
            state.timerArmed = next != nil
            return (overdue, next)
        }
        if let timeout {
            for (id, tracked) in overdue { diagnostics.report(tracked.diagnostic(id: id, timeout: timeout)) }
        }
        if let next { arm(at: next) }
    }
}
