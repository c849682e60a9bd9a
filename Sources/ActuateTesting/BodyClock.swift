import Actuate
import Synchronization

/// The virtual time of one body an ``ActionTestHarness`` started: the scheduler's time when it started, then the
/// deadline of each sleep it woke from (see ``TestScheduler``'s notes on sleeping).
///
/// The harness attaches it to the request's dependency values, which are current in the body's task and in
/// the actions the body performs, where ``TestScheduler/sleep(for:)`` finds it.
final class BodyClock: Sendable {
    private struct State {
        var now: Duration
        var sleepingUntil: Duration?
    }

    /// The scheduler whose time this is.
    let scheduler: TestScheduler
    private let state: Mutex<State>

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
        self.state = Mutex(State(now: scheduler.uptime()))
    }

    /// The clock of the body running in the current task, when it runs on `scheduler`.
    static func current(of scheduler: TestScheduler) -> BodyClock? {
        guard let clock = DependencyStore.current?.scope as? BodyClock, clock.scheduler === scheduler else {
            return nil
        }
        return clock
    }

    /// The body's virtual time.
    var now: Duration { state.withLock { $0.now } }

    /// The deadline of the sleep the body waits in, if it does.
    var sleepingUntil: Duration? { state.withLock { $0.sleepingUntil } }

    func sleeping(until deadline: Duration?) {
        state.withLock { $0.sleepingUntil = deadline }
    }

    func woke(at deadline: Duration) {
        state.withLock { $0.now = max($0.now, deadline) }
    }
}
