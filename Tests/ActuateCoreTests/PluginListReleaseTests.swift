import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuateTesting

/// The queue of this file's actions, its own, so that a body that waits blocks no other suite's queue.
private enum ReleaseQueues {
    static let blocking = DispatchQueue(label: "actuate.tests.plugin-release.blocking")
    static let stress = [
        DispatchQueue(label: "actuate.tests.plugin-release.stress-0"),
        DispatchQueue(label: "actuate.tests.plugin-release.stress-1"),
    ]
}

/// Two semaphores a body and a test hand each other: the body signals `entered`, then waits for `proceed`.
private final class Gate: Loggable, Sendable {
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let sequenceInBody = Mutex<UInt64?>(nil)
    var loggingDescription: String { "gate" }
}

/// Records its thread's dispatch sequence, signals that it runs, and waits for the test before it completes.
private final class BlockingAction: Action {
    typealias InputType = Gate
    static var queue: DispatchQueue { ReleaseQueues.blocking }

    static func perform(context: ActionContext<Gate>, presenter: Void, completion: Completion) -> Completion.Status {
        let gate = context.input
        let sequence = RunningQueue.cell(key: RunningQueue.key).pointee.dispatchSequence.load(ordering: .relaxed)
        gate.sequenceInBody.withLock { $0 = sequence }
        gate.entered.signal()
        gate.proceed.wait()
        return completion.completedSync(.success)
    }
}

private final class StressAction0: Action {
    static var queue: DispatchQueue { ReleaseQueues.stress[0] }
    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

private final class StressAction1: Action {
    static var queue: DispatchQueue { ReleaseQueues.stress[1] }
    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

private final class ReleaseFeature: Feature {
    static let blocking = action(BlockingAction.self)
    static let stress0 = action(StressAction0.self)
    static let stress1 = action(StressAction1.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(blocking)
        actions.declare(stress0)
        actions.declare(stress1)
    }
}

/// A plugin that counts what it hears; a dispatch that reached it after it was freed would read freed memory.
private final class HearingPlugin: ActionDispatchPlugin {
    let began = Atomic<Int>(0)
    let completed = Atomic<Int>(0)
    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) { began.add(1, ordering: .relaxed) }
    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {
        completed.add(1, ordering: .relaxed)
    }
}

/// What the stress test's dispatching threads and the test share.
private final class StressFlags: Sendable {
    let stop = Atomic<Bool>(false)
    let dispatched = Atomic<Int>(0)
}

/// A weak reference, to check that an object was released.
private struct Weak<Object: AnyObject> {
    weak var object: Object?
}

@Suite("Removed plugins are released")
struct PluginListReleaseTests {
    /// Releases the dispatcher's replaced lists until none is kept: each waits only for the threads that were inside
    /// a dispatch call when it was replaced (other suites' threads among them) to leave it. Polls, never sleeps; the
    /// limit is a safety net, generous for the thread sanitizer on a busy machine.
    private static func releaseRetiredLists(of dispatcher: ActionDispatcher) -> Bool {
        let deadline = ContinuousClock.now + .seconds(120)
        while dispatcher.releaseRetiredPluginLists() > 0 {
            if ContinuousClock.now > deadline { return false }
            sched_yield()
        }
        return true
    }

    @Test("20,000 add/remove cycles leave every removed plugin and every replaced list released")
    func addRemoveCycles() {
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
        let kept = HearingPlugin()
        dispatcher.add(plugin: kept)
        var plugins: [Weak<HearingPlugin>] = []
        var lists: [Weak<PluginList>] = []
        plugins.reserveCapacity(20_000)
        lists.reserveCapacity(40_000)
        var mostRetired = 0
        for _ in 0..<20_000 {
            let plugin = HearingPlugin()
            dispatcher.add(plugin: plugin)
            // Counted in the test's hands: nothing publishes a list meanwhile.
            lists.append(Weak(object: dispatcher.currentPlugins.load(ordering: .acquiring).object))
            dispatcher.remove(plugin: plugin)
            lists.append(Weak(object: dispatcher.currentPlugins.load(ordering: .acquiring).object))
            plugins.append(Weak(object: plugin))
            mostRetired = max(mostRetired, dispatcher.retiredPluginListCount)
        }
        #expect(dispatcher.publishedPluginListCount == 40_002)
        #expect(Self.releaseRetiredLists(of: dispatcher))
        #expect(plugins.count { $0.object != nil } == 0)
        // Alive: the current list only, the last one published. Before, all 40,002 lists and 20,000 plugins stayed.
        #expect(lists.dropLast().count { $0.object != nil } == 0)
        #expect(lists.last?.object != nil)
        #expect(dispatcher.installedPlugins.count == 1)
        // A list waits only while a thread stays inside one dispatch call; never anywhere near every list.
        #expect(mostRetired < 20_000)
    }

    @Test("a dispatch inside its call keeps the list it loaded, and the removed plugin, until the call returns")
    func dispatchInFlightKeepsItsList() throws {
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
        let session = ActionSession(named: "release", dispatcher: dispatcher)
        let gate = Gate()
        let finished = DispatchSemaphore(value: 0)
        var weakPlugin = Weak<HearingPlugin>()
        let began: Int
        do {
            let plugin = HearingPlugin()
            weakPlugin.object = plugin
            dispatcher.add(plugin: plugin)
            // Performed on the action's own queue: the body runs inline, inside the dispatch call.
            ReleaseQueues.blocking.async {
                session.perform(ReleaseFeature.blocking, input: gate, presenter: ()) { _ in finished.signal() }
            }
            gate.entered.wait()
            dispatcher.remove(plugin: plugin)
            began = plugin.began.load(ordering: .relaxed)
        }
        #expect(began == 1)
        // The body runs inside the dispatch call: its thread's sequence is odd.
        #expect(gate.sequenceInBody.withLock { $0.map { $0 & 1 } } == 1)
        // The blocked thread is inside the call that loaded the replaced list: the list, and its plugin, stay.
        #expect(dispatcher.releaseRetiredPluginLists() >= 1)
        #expect(weakPlugin.object != nil)
        gate.proceed.signal()
        finished.wait()
        // The removed plugin still heard the end of the dispatch that began with it.
        #expect(weakPlugin.object?.completed.load(ordering: .relaxed) == 1)
        #expect(Self.releaseRetiredLists(of: dispatcher))
        #expect(weakPlugin.object == nil)
    }

    @Test("an operation that outlives its call keeps its list, and completes through it after the dispatcher is gone")
    func operationOutlivingItsCallKeepsItsList() async throws {
        let probe = Probe()
        let heard = SharedLog()
        var weakPlugin = Weak<HearingPlugin>()
        weak var weakDispatcher: ActionDispatcher?
        do {
            let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
            weakDispatcher = dispatcher
            let plugin = HearingPlugin()
            weakPlugin.object = plugin
            dispatcher.add(plugin: plugin)
            let session = ActionSession(named: "release", dispatcher: dispatcher)
            // Performed from the test's thread: the body runs after a hop, and keeps its completion.
            session.perform(GreetingFeature.probe, input: probe, presenter: GreetingPresenter()) { outcome in
                heard.append("caller \(outcome.isSuccess)")
            }
            #expect(await eventually { probe.keptStatus != nil })
            dispatcher.remove(plugin: plugin)
            #expect(Self.releaseRetiredLists(of: dispatcher))
        }
        // The hop's block may still be releasing its operation on the queue: wait for the queue to drain.
        await withCheckedContinuation { continuation in TestQueues.background.async { continuation.resume() } }
        // The operation holds its list, not the dispatcher: the dispatcher is gone, the removed plugin is not.
        #expect(weakDispatcher == nil)
        try #require(weakPlugin.object != nil)
        probe.completeKept(.success)
        #expect(heard.all == ["caller true"])
        #expect(weakPlugin.object == nil)
    }

    #if canImport(Glibc)
    @Test("a thread's cell, whose dispatch sequence writers read, leaves the list of cells when the thread exits")
    func cellLeavesTheListAtThreadExit() {
        final class Address: @unchecked Sendable {
            // Safe: written by the thread before it exits, read after `pthread_join` returns.
            var value: UInt = 0
        }
        let address = Address()
        var thread = pthread_t()
        let created = pthread_create(
            &thread,
            nil,
            { context in
                let address = Unmanaged<Address>.fromOpaque(context!).takeUnretainedValue()
                address.value = UInt(bitPattern: RunningQueue.cell(key: RunningQueue.key))
                return nil
            },
            Unmanaged.passUnretained(address).toOpaque()
        )
        #expect(created == 0)
        #expect(pthread_join(thread, nil) == 0)
        #expect(address.value != 0)
        #expect(!RunningQueue.cells.withLock { $0.contains(address.value) })
        #expect(DispatchingThreads.sequences()[address.value] == nil)
    }
    #endif

    @Test("plugins added and removed while other threads dispatch: each dispatch hears a whole begin/complete pair")
    func addRemoveWhileDispatching() async {
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
        let session = ActionSession(named: "release-stress", dispatcher: dispatcher)
        let flags = StressFlags()
        let group = DispatchGroup()
        for queue in ReleaseQueues.stress {
            queue.async(group: group) {
                var count = 0
                while !flags.stop.load(ordering: .relaxed) || count < 100 {
                    // On the action's own queue: inline, inside the dispatch call.
                    if queue === ReleaseQueues.stress[0] {
                        session.perform(ReleaseFeature.stress0, completion: nil)
                    } else {
                        session.perform(ReleaseFeature.stress1, completion: nil)
                    }
                    count += 1
                }
                flags.dispatched.add(count, ordering: .relaxed)
            }
        }
        var plugins: [HearingPlugin] = []
        var released: [Weak<HearingPlugin>] = []
        for _ in 0..<2_000 {
            let plugin = HearingPlugin()
            dispatcher.add(plugin: plugin)
            dispatcher.remove(plugin: plugin)
            plugins.append(plugin)
            released.append(Weak(object: plugin))
        }
        flags.stop.store(true, ordering: .relaxed)
        await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
        #expect(flags.dispatched.load(ordering: .relaxed) >= 200)
        #expect(plugins.allSatisfy { $0.began.load(ordering: .relaxed) == $0.completed.load(ordering: .relaxed) })
        plugins = []
        #expect(Self.releaseRetiredLists(of: dispatcher))
        #expect(released.count { $0.object != nil } == 0)
    }
}
