import ActuateTesting
import Testing

@testable import ActuateCore
@testable import ActuateFixtures
@testable import ActuatePlugins

@Suite("Timeline shards")
struct TimelineShardTests {
    @Test("actions on different queues record in different shards, and a read merges them in start order")
    func shardedTimelineMerge() async {
        let scheduler = TestScheduler()
        let dispatcher = ActionDispatcher(scheduler: scheduler, diagnostics: RecordingDiagnostics())
        let timeline = Timeline(maxEntries: 3)
        dispatcher.add(plugin: timeline)
        let session = ActionSession(named: "shards", dispatcher: dispatcher)
        let left = DispatchQueueMarker.marker(for: SnapshotQueues.left).index
        let right = DispatchQueueMarker.marker(for: SnapshotQueues.right).index
        try? #require(left % Timeline.shardCount != right % Timeline.shardCount)

        for binding in [SnapshotFeature.left, SnapshotFeature.left] {
            _ = await session.perform(binding)
            scheduler.advance(by: .milliseconds(1))
        }
        _ = await session.perform(SnapshotFeature.right)
        scheduler.advance(by: .milliseconds(1))
        _ = await session.perform(SnapshotFeature.left)

        let counts = timeline.recordCountsByShard()
        #expect(counts[left % Timeline.shardCount] == 3)
        #expect(counts[right % Timeline.shardCount] == 1)
        // The newest three of four, oldest first, across both shards.
        let entries = timeline.snapshot()
        #expect(entries.map(\.actionName) == [LeftAction.name, RightAction.name, LeftAction.name])
        #expect(entries.map(\.startOffsetNanoseconds) == entries.map(\.startOffsetNanoseconds).sorted())
        #expect(entries.allSatisfy { $0.outcome == .success })
    }
}
