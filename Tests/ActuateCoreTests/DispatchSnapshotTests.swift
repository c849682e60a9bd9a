import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuateTesting

/// A plugin that counts its calls.
private final class AtomicCountingPlugin: ActionDispatchPlugin {
    let began = Atomic<Int>(0)
    func actionWillBegin<F, A>(_ request: ActionRequest<F, A>) { began.add(1, ordering: .relaxed) }
    func actionDidComplete<F, A>(_ request: ActionRequest<F, A>, outcome: ActionPerformOutcome) {}
}

@Suite("Dispatch snapshots and the running-queue record")
struct DispatchSnapshotTests {
    @Test("adding and removing plugins publishes a new immutable list; a list already loaded never changes")
    func pluginListPublication() async {
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
        #expect(dispatcher.publishedPluginListCount == 1)
        let first = AtomicCountingPlugin()
        dispatcher.add(plugin: first)
        // Counted: the dispatcher releases a list it replaced once no dispatch call can still be reading it.
        let loaded = dispatcher.currentPlugins.load(ordering: .acquiring).object
        let second = AtomicCountingPlugin()
        dispatcher.add(plugin: second)
        #expect(loaded.plugins.count == 1)
        #expect(dispatcher.currentPlugins.load(ordering: .acquiring).object.plugins.count == 2)
        dispatcher.remove(plugin: first)
        #expect(dispatcher.publishedPluginListCount == 4)
        #expect(loaded.plugins.count == 1)

        let session = ActionSession(named: "snapshots", dispatcher: dispatcher)
        _ = await session.perform(SnapshotFeature.left)
        #expect(first.began.load(ordering: .relaxed) == 0)
        #expect(second.began.load(ordering: .relaxed) == 1)
    }

    @Test("a binding publishes its resolution once and reuses it until the registry replaces metadata")
    func bindingResolutionPublication() async {
        let binding = StaticActionBinding<SnapshotFeature, LeftAction>()
        #expect(binding.cache.current() == nil)
        #expect(binding.cache.publishedCount == 0)
        let resolved = binding.resolved()
        #expect(binding.cache.publishedCount == 1)
        #expect(binding.resolved() == resolved)
        #expect(binding.cache.current() == resolved)
        #expect(resolved.object.action?.object.name == LeftAction.name)
        #expect(binding.cache.publishedCount == 1)
    }

    @Test("the running-queue record names the body's own queue only while the dispatcher runs the body")
    func runningQueueRecord() async {
        let harness = ActionTestHarness()
        RunningQueueProbeAction.seen.withLock { $0 = [] }
        #expect(RunningQueue.currentMarker == nil)
        _ = await harness.session.perform(SnapshotFeature.probe)
        #expect(RunningQueueProbeAction.seen.withLock { $0 } == [true, false])
        // On the queue through the caller's own `sync`, only the `getSpecific` comparison can tell.
        let marker = DispatchQueueMarker.marker(for: SnapshotQueues.left)
        let (recorded, current) = SnapshotQueues.left.sync {
            (RunningQueue.isRunning(marker), marker.isCurrent)
        }
        #expect(recorded == false)
        #expect(current == true)
        #expect(marker.isCurrent == false)
    }

    @Test("the queue check learns the marker's libdispatch context once and then answers from it alone")
    func queueCheckLearnsContext() {
        let left = DispatchQueueMarker.marker(for: SnapshotQueues.left)
        let right = DispatchQueueMarker.marker(for: SnapshotQueues.right)
        #expect(SnapshotQueues.left.sync { DispatchQueueMarker.isCurrentQueue(left) })
        let learned = left.specificContext.load(ordering: .relaxed)
        #expect(learned != 0)
        #expect(SnapshotQueues.left.sync { DispatchQueueMarker.isCurrentQueue(left) })
        #expect(left.specificContext.load(ordering: .relaxed) == learned)
        // Another queue's context never matches, and a queue targeting `left` is on it, as with `getSpecific`.
        #expect(SnapshotQueues.right.sync { DispatchQueueMarker.isCurrentQueue(left) } == false)
        #expect(SnapshotQueues.right.sync { DispatchQueueMarker.isCurrentQueue(right) })
        #expect(right.specificContext.load(ordering: .relaxed) != learned)
        let child = DispatchQueue(label: "actuate.tests.snapshot.child", target: SnapshotQueues.left)
        #expect(child.sync { DispatchQueueMarker.isCurrentQueue(left) })
        #expect(DispatchQueueMarker.isCurrentQueue(left) == false)
    }

    @Test(
        "the queue check learns the queue's own libdispatch identity in a block of that queue, and then answers from it"
    )
    func queueCheckLearnsQueueIdentity() {
        let marker = DispatchQueueMarker.marker(for: SnapshotQueues.identity)
        let child = DispatchQueue(label: "actuate.tests.snapshot.identity.child", target: SnapshotQueues.identity)
        // A block of a queue targeting the marker's queue is on it, but finds the marker on the target only, and
        // teaches nothing.
        #expect(child.sync { marker.isCurrent })
        #expect(marker.queueIdentity.load(ordering: .relaxed) == 0)
        #expect(SnapshotQueues.identity.sync { DispatchQueueMarker.isRunningOwnQueue(marker) } == false)
        // A block of the queue itself teaches it; then the check answers without `getSpecific`.
        #expect(SnapshotQueues.identity.sync { marker.isCurrent })
        let identity = marker.queueIdentity.load(ordering: .relaxed)
        #expect(identity != 0)
        #expect(SnapshotQueues.identity.sync { DispatchQueueMarker.isRunningOwnQueue(marker) })
        #expect(marker.queueIdentity.load(ordering: .relaxed) == identity)
        // Anywhere else it answers no, and the full check answers as `getSpecific` does.
        #expect(child.sync { DispatchQueueMarker.isRunningOwnQueue(marker) } == false)
        #expect(child.sync { marker.isCurrent })
        #expect(SnapshotQueues.right.sync { DispatchQueueMarker.isRunningOwnQueue(marker) } == false)
        #expect(SnapshotQueues.right.sync { marker.isCurrent } == false)
        #expect(DispatchQueueMarker.isRunningOwnQueue(marker) == false)
        #expect(marker.isCurrent == false)
    }

    @Test("nested running-queue records restore the outer one")
    func nestedRunningQueueRecords() {
        let left = DispatchQueueMarker.marker(for: SnapshotQueues.left)
        let right = DispatchQueueMarker.marker(for: SnapshotQueues.right)
        let (outer, inner, restored, cleared) = SnapshotQueues.left.sync {
            let outerEntry = RunningQueue.enter(UnownedReference(left))
            let outer = (RunningQueue.isRunning(left), RunningQueue.isRunning(right))
            let innerEntry = RunningQueue.enter(UnownedReference(right))
            let inner = (RunningQueue.isRunning(left), RunningQueue.isRunning(right))
            RunningQueue.leave(restoring: innerEntry)
            let restored = (RunningQueue.isRunning(left), RunningQueue.currentMarker === left)
            RunningQueue.leave(restoring: outerEntry)
            return (outer, inner, restored, RunningQueue.currentMarker == nil)
        }
        #expect(outer == (true, false))
        #expect(inner == (false, true))
        #expect(restored == (true, true))
        #expect(cleared)
    }
}
