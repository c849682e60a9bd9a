import Dispatch
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuateTesting

/// An operation holds no reference to its dispatcher: it holds its plugin list, which holds the watchdog and the clock
/// it needs at completion, uncounted while the dispatch call runs and counted once it outlives the call. These tests
/// drop every other reference to the dispatcher while an action is still in flight, and complete it afterwards.
@Suite("Dispatcher lifetime")
struct DispatcherLifetimeTests {
    /// A dispatcher with a logging plugin, and a session on it, that only the caller holds.
    private static func makeSession(log: SharedLog) -> ActionSession {
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
        dispatcher.add(plugin: LoggingPlugin("plugin", log: log))
        return ActionSession(named: "lifetime", dispatcher: dispatcher)
    }

    /// Runs `body` on the probe action's queue and returns once it has.
    private static func onActionQueue(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { continuation in
            TestQueues.background.async {
                body()
                continuation.resume()
            }
        }
    }

    @Test("an inline dispatch whose body keeps its completion completes through its plugin list, dispatcher gone")
    func inlineBodyKeepingItsCompletion() async throws {
        let log = SharedLog()
        let heard = SharedLog()
        let probe = Probe()
        weak var weakDispatcher: ActionDispatcher?
        do {
            let session = Self.makeSession(log: log)
            weakDispatcher = session.dispatcher
            await Self.onActionQueue {
                session.perform(GreetingFeature.probe, input: probe, presenter: GreetingPresenter()) { outcome in
                    heard.append("caller \(outcome.isSuccess)")
                }
            }
        }
        // The block that performed may still be releasing the session on the queue: wait for the queue to drain.
        await Self.onActionQueue {}
        #expect(probe.events == ["body on background"])
        // The operation, which the probe's kept status holds, keeps its plugin list and not the dispatcher; it must
        // read nothing of the released dispatcher when it completes.
        #expect(weakDispatcher == nil)
        probe.completeKept(.success)
        #expect(log.all == ["plugin begin Probe", "plugin complete Probe"])
        #expect(heard.all == ["caller true"])
    }

    @Test("a dispatch that hops to the action's queue completes through its plugin list, dispatcher gone")
    func hopKeepsTheDispatcher() async throws {
        let log = SharedLog()
        let probe = Probe()
        weak var weakDispatcher: ActionDispatcher?
        do {
            let session = Self.makeSession(log: log)
            weakDispatcher = session.dispatcher
            session.perform(GreetingFeature.probe, input: probe, presenter: GreetingPresenter(), completion: nil)
        }
        #expect(await eventually { probe.keptStatus != nil })
        // The hop's block may still be releasing its operation on the queue: wait for the queue to drain.
        await Self.onActionQueue {}
        #expect(weakDispatcher == nil)
        probe.completeKept(.success)
        #expect(log.all == ["plugin begin Probe", "plugin complete Probe"])
    }

    @Test("an inline dispatch that completes in place leaves nothing holding the dispatcher")
    func inlineCompletionInPlaceHoldsNothing() async {
        let log = SharedLog()
        weak var weakDispatcher: ActionDispatcher?
        do {
            let session = Self.makeSession(log: log)
            weakDispatcher = session.dispatcher
            await Self.onActionQueue { session.perform(GreetingFeature.noOp, completion: nil) }
        }
        #expect(log.all == ["plugin begin No Op", "plugin complete No Op"])
        await Self.onActionQueue {}
        #expect(weakDispatcher == nil)
    }
}
