import ActuateTesting
import Dispatch
import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuateFixtures

@Suite("Request ids in blocks per queue")
struct RequestIDBlocksTests {
    @Test("each queue takes its ids in blocks of 64 from the dispatcher's counter; queues sharing a slot share a block")
    func blocksPerQueue() {
        let blocks = RequestIDBlocks()
        let counter = Atomic<UInt64>(1)
        func next(_ queueIndex: Int) -> UInt64 { blocks.nextID(queueIndex: queueIndex, counter: counter) }
        #expect([next(0), next(0), next(1), next(0)] == [1, 2, 65, 3])
        // Index 64 maps to slot 0, as index 0 does: it takes the next id of that slot's block.
        #expect(next(64) == 4)
        let restOfBlock = (5...64).map { _ in next(0) }
        #expect(restOfBlock == Array(5...64))
        // Block 65...128 went to index 1: slot 0's next block is 129...192.
        #expect(next(0) == 129)
        #expect(next(1) == 66)
        #expect(counter.load(ordering: .relaxed) == 193, "three blocks taken, and nothing else")
    }

    @Test("queues taking ids at once, two through one slot, never share an id, and each gets increasing ids")
    func concurrentQueuesGetUniqueIDs() {
        let blocks = RequestIDBlocks()
        let counter = Atomic<UInt64>(1)
        let queueIndices = [3, 4, 5, 69]  // 5 and 69 share a slot
        let perQueue = 5_000
        let taken = Mutex<[[UInt64]]>(Array(repeating: [], count: queueIndices.count))
        DispatchQueue.concurrentPerform(iterations: queueIndices.count) { lane in
            let ids = (0..<perQueue).map { _ in blocks.nextID(queueIndex: queueIndices[lane], counter: counter) }
            taken.withLock { $0[lane] = ids }
        }
        let all = taken.withLock { $0 }
        #expect(Set(all.joined()).count == queueIndices.count * perQueue)
        for ids in all {
            #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 })
        }
    }

    @Test("with a TestScheduler, requests on different queues are numbered in the order they were dispatched")
    func testSchedulerNumbersInDispatchOrder() {
        let dispatcher = ActionDispatcher(scheduler: TestScheduler(), diagnostics: RecordingDiagnostics())
        let session = ActionSession(named: "ids", dispatcher: dispatcher)
        let ids = [
            perform(GreetingFeature.noOp, in: session),
            perform(RequestIDFeature.onOther, in: session),
            perform(GreetingFeature.noOp, in: session),
            perform(RequestIDFeature.onOther, in: session),
        ]
        #expect(ids == [1, 2, 3, 4])
    }

    @Test("with the system scheduler, requests on one queue get increasing ids, unique across queues")
    func systemSchedulerNumbersPerQueue() {
        let dispatcher = ActionDispatcher(scheduler: SystemScheduler.shared, diagnostics: RecordingDiagnostics())
        let session = ActionSession(named: "ids", dispatcher: dispatcher)
        var background: [UInt64] = []
        var other: [UInt64] = []
        for _ in 0..<100 {
            background.append(perform(GreetingFeature.noOp, in: session))
            other.append(perform(RequestIDFeature.onOther, in: session))
        }
        #expect(zip(background, background.dropFirst()).allSatisfy { $0 < $1 })
        #expect(zip(other, other.dropFirst()).allSatisfy { $0 < $1 })
        #expect(Set(background + other).count == 200)
        #expect(background.first == 1, "the first queue to dispatch takes the first block")
        let backgroundSlot = DispatchQueueMarker.marker(for: TestQueues.background).index & 63
        let otherSlot = DispatchQueueMarker.marker(for: TestQueues.other).index & 63
        if backgroundSlot != otherSlot {
            // Alternating dispatches on two queues: each queue's first 64 ids are one block, one after another.
            #expect(Array(background.prefix(64)) == Array(1...64))
            #expect(Array(other.prefix(64)) == Array(65...128))
        } else {
            // The two queues' indices map to one slot, so they share its blocks, taking ids in turn.
            #expect(Array(background.prefix(32)) == Array(stride(from: 1, through: 63, by: 2)))
        }
    }

    private func perform<F: FeatureDefinition, A: Action>(
        _ binding: StaticActionBinding<F, A>,
        in session: ActionSession
    )
        -> UInt64
    where A.InputType == NoInput, A.PresenterType == Void {
        let id = session.performReturningID(
            binding,
            input: .noInput,
            presenter: (),
            userInitiated: true,
            source: .application
        ) { _ in }
        return id ?? 0
    }
}

final class OtherQueueNoOpAction: Action {
    static var queue: DispatchQueue { TestQueues.other }

    static func perform(context: ActionContext<NoInput>, presenter: Void, completion: Completion) -> Completion.Status {
        completion.completedSync(.success)
    }
}

/// A trivial action on the other test queue, beside `GreetingFeature.noOp` on the background one.
final class RequestIDFeature: Feature {
    static let onOther = action(OtherQueueNoOpAction.self)

    static func prepare(actions: FeatureActionsBuilder) {
        actions.declare(onOther)
    }
}
