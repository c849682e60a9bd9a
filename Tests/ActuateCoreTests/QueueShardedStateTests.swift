import Dispatch
import Testing

@testable import ActuateCore

@Suite("QueueShardedState")
struct QueueShardedStateTests {
    @Test(
        "the shard count is rounded up to a power of two and kept between 1 and the maximum",
        arguments: [(16, 16), (5, 8), (1, 1), (0, 1), (-3, 1), (1_024, 1_024), (100_000, 1_024)]
    )
    func shardCount(requested: Int, expected: Int) {
        let state = QueueShardedState<Int>(shardCount: requested) { 0 }
        #expect(state.shardCount == expected)
        #expect(state.mapStates { $0 }.count == expected)
    }

    @Test("the default has 16 shards, each made by its own call, and the most is the maximum")
    func defaultShards() {
        var made = 0
        let state = QueueShardedState<Int> {
            made += 1
            return made
        }
        #expect(state.shardCount == 16)
        #expect(state.mapStates { $0 } == Array(1...16))
        #expect(QueueShardedState<Int>(shardCount: .max) { 0 }.shardCount == QueueShardedState<Int>.maximumShardCount)
    }

    @Test("a queue index always reaches the same shard, and indices a shard count apart share it")
    func queueIndexPicksShard() {
        let state = QueueShardedState<[Int]>(shardCount: 4) { [] }
        state.withState(queueIndex: 1) { $0.append(1) }
        state.withState(queueIndex: 5) { $0.append(5) }
        state.withState(queueIndex: 2) { $0.append(2) }
        state.withState(queueIndex: -1) { $0.append(-1) }
        #expect(state.mapStates { $0 } == [[], [1, 5], [2], [-1]])
        #expect(state.withState(queueIndex: 9) { $0.count } == 2)
    }

    @Test("mapStates changes every shard in place, in shard order")
    func mapStatesChanges() {
        let state = QueueShardedState<Int>(shardCount: 4) { 10 }
        let before = state.mapStates { (shard: inout Int) -> Int in
            defer { shard = 0 }
            return shard
        }
        #expect(before == [10, 10, 10, 10])
        #expect(state.mapStates { $0 } == [0, 0, 0, 0])
    }

    @Test("changes from many threads on shared and separate shards are all kept")
    func concurrentChanges() {
        let state = QueueShardedState<Int>(shardCount: 4) { 0 }
        let threads = 8
        let changesPerThread = 5_000
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for _ in 0..<changesPerThread {
                state.withState(queueIndex: thread) { $0 += 1 }
            }
        }
        // Threads i and i + 4 share shard i.
        #expect(state.mapStates { $0 } == Array(repeating: 2 * changesPerThread, count: 4))
    }
}
