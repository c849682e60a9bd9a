import Synchronization
import Testing

@testable import ActuateCore
@testable import ActuateFixtures

/// The gate's entry without a continuation (a free gate, or a hold the body may share) and its fall back to
/// waiting when the gate is held.
@Suite("Async serial gate entry")
struct AsyncSerialGateEntryTests {
    @Test("a free gate is entered at once, under a hold of its own, and is free again afterwards")
    func freeGate() async {
        let gate = AsyncSerialGate()
        let heldByThisGate = await gate.withGate(nestedIn: nil) { ActionNesting.current?.gate === gate }
        #expect(heldByThisGate)
        #expect(gate.waitingCount == 0)
        let again = await gate.withGate(nestedIn: nil) { 7 }
        #expect(again == 7)
        #expect(gate.waitingCount == 0)
    }

    @Test("a body nested in the holder shares its hold without waiting")
    func nestedShares() async {
        let gate = AsyncSerialGate()
        let shared = await gate.withGate(nestedIn: nil) {
            let outer = ActionNesting.current
            let inner = await gate.withGate(nestedIn: outer) { ActionNesting.current }
            return inner === outer
        }
        #expect(shared)
        #expect(gate.waitingCount == 0)
    }

    @Test("bodies that find the gate held wait, and enter in arrival order once it is left")
    func heldGateQueues() async {
        let gate = AsyncSerialGate()
        let order = EntryOrder()
        let release = AsyncStream<Void>.makeStream()
        let entered = AsyncStream<Void>.makeStream()
        let holder = Task {
            await gate.withGate(nestedIn: nil) {
                order.append("holder")
                entered.continuation.yield()
                for await _ in release.stream { break }
            }
        }
        for await _ in entered.stream { break }
        let first = Task { await gate.withGate(nestedIn: nil) { order.append("first") } }
        #expect(await eventually { gate.waitingCount == 1 })
        let second = Task { await gate.withGate(nestedIn: nil) { order.append("second") } }
        #expect(await eventually { gate.waitingCount == 2 })
        #expect(order.entries == ["holder"])
        release.continuation.yield()
        await holder.value
        await first.value
        await second.value
        #expect(order.entries == ["holder", "first", "second"])
        #expect(gate.waitingCount == 0)
    }
}

/// The order in which bodies entered a gate.
private final class EntryOrder: Sendable {
    private let state = Mutex<[String]>([])

    var entries: [String] { state.withLock { $0 } }

    func append(_ entry: String) {
        state.withLock { $0.append(entry) }
    }
}
