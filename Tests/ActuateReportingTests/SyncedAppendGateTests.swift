import ActuateTestSupport
import Foundation
import Synchronization
import Testing

@testable import ActuateReporting

/// The gate's gathering, with the processor yields scripted: each scripted yield may queue appends, as other
/// threads would while the leader waits.
@Suite("SyncedAppendGate")
struct SyncedAppendGateTests {
    /// A gate whose every yield is counted and then runs `onYield` with the gate and the yield's number.
    final class ScriptedGate: Sendable {
        /// What the gate's yields see: their count, and the gate to queue appends on.
        final class Script: Sendable {
            /// Holds the gate weakly: the gate's yield closure holds the script.
            struct WeakGate {
                weak var gate: SyncedAppendGate?
            }

            let yields = Mutex(0)
            let gate = Mutex(WeakGate())
        }

        private let script = Script()
        let gate: SyncedAppendGate

        init(onYield: @escaping @Sendable (SyncedAppendGate, Int) -> Void = { _, _ in }) {
            let script = script
            gate = SyncedAppendGate {
                let number = script.yields.withLock { count in
                    count += 1
                    return count
                }
                if let gate = script.gate.withLock({ $0.gate }) { onYield(gate, number) }
            }
            script.gate.withLock { $0.gate = gate }
        }

        /// A gate whose yield number `n` queues `appendsByYield[n]` appends, as threads returning from the
        /// previous write would.
        convenience init(queuingOnYield appendsByYield: [Int: Int]) {
            self.init { gate, yield in
                for _ in 0..<(appendsByYield[yield] ?? 0) { gate.appendQueued() }
            }
        }

        var yields: Int { script.yields.withLock { $0 } }

        /// Queues `count` appends and leads the write that carries them.
        func appendAndWrite(queuing count: Int = 1) throws {
            for _ in 0..<count { gate.appendQueued() }
            var written = false
            try gate.waitUntilWritten({ written }, write: { written = true })
        }
    }

    @Test("a lone appender leads every write and never yields")
    func loneAppenderNeverYields() throws {
        let scripted = ScriptedGate()
        for _ in 0..<3 { try scripted.appendAndWrite() }
        #expect(scripted.yields == 0)
        #expect(scripted.gate.writeCounts == (writes: 3, appends: 3))
    }

    @Test("a leader yields until as many appends are queued as the last write carried, then writes them together")
    func leaderWaitsForThePreviousWritesAppenders() throws {
        // The second yield queues the two appends that shared the first write with the leader.
        let scripted = ScriptedGate(queuingOnYield: [2: 2])
        try scripted.appendAndWrite(queuing: 3)
        try scripted.appendAndWrite()
        #expect(scripted.yields == 2, "the leader stops yielding once three appends are queued")
        #expect(scripted.gate.writeCounts == (writes: 2, appends: 6), "the second write carried all three")
    }

    @Test("a leader also waits for the appends that queued while the previous write was in flight")
    func leaderWaitsForAppendsQueuedDuringTheWrite() throws {
        // The first write carries three appends, and a fourth queues while it is in flight. The fourth leads the
        // next write: the first yield queues two of the three returning appends, the second yield the third.
        let scripted = ScriptedGate(queuingOnYield: [1: 2, 2: 1])
        for _ in 0..<3 { scripted.gate.appendQueued() }
        var firstWritten = false
        try scripted.gate.waitUntilWritten(
            { firstWritten },
            write: {
                scripted.gate.appendQueued()
                firstWritten = true
            }
        )
        var secondWritten = false
        try scripted.gate.waitUntilWritten({ secondWritten }, write: { secondWritten = true })
        #expect(scripted.yields == 2, "the leader waits for all four appenders, not only the three the write carried")
        #expect(scripted.gate.writeCounts == (writes: 2, appends: 7), "the second write carried all four")
    }

    @Test("a leader whose awaited appends never come writes after the last allowed yield")
    func gatheringIsBounded() throws {
        let scripted = ScriptedGate()
        try scripted.appendAndWrite(queuing: 4)
        try scripted.appendAndWrite()
        #expect(scripted.yields == SyncedAppendGate.maxGatheringYields)
        #expect(scripted.gate.writeCounts == (writes: 2, appends: 5))
    }

    @Test("a failed write throws from its leader, and the next waiter leads a write of its own")
    func failedWriteIsRetriedByTheNextLeader() throws {
        let scripted = ScriptedGate()
        scripted.gate.appendQueued()
        struct DiskFull: Error {}
        var attempts = 0
        #expect(throws: DiskFull.self) {
            try scripted.gate.waitUntilWritten(
                { false },
                write: {
                    attempts += 1
                    throw DiskFull()
                }
            )
        }
        var written = false
        try scripted.gate.waitUntilWritten({ written }, write: { written = true })
        #expect(attempts == 1)
        #expect(written)
    }

    @Test("a leader returns once its write succeeds, even when it queued nothing the write could mark, as a duplicate")
    func leaderReturnsAfterItsWrite() throws {
        let scripted = ScriptedGate()
        var writes = 0
        try scripted.gate.waitUntilWritten({ false }, write: { writes += 1 })
        #expect(writes == 1)
    }

    /// A leader on its own thread whose write lasts until `writeMayEnd` holds, and an append that queues while that
    /// write is in flight and then waits; the waiting append's yields are counted.
    final class WriteInFlight: Sendable {
        /// What the leader and the waiting append share.
        final class Progress: Sendable {
            let waitingYields = Mutex(0)
            let writing = Mutex(false)
            let leaderReturned = Mutex(false)
        }

        private let progress = Progress()
        let gate: SyncedAppendGate

        /// - Parameter yieldsUntilLeaderReturns: Whether the waiting append's yields last until the leader has
        ///   returned, so that the write has ended by the time its next yield would begin.
        init(yieldsUntilLeaderReturns: Bool = false) {
            let progress = progress
            gate = SyncedAppendGate(yieldWhileWaiting: {
                progress.waitingYields.withLock { $0 += 1 }
                repeat {
                    _ = sched_yield()
                } while yieldsUntilLeaderReturns && !progress.leaderReturned.withLock({ $0 })
            })
        }

        var yields: Int { progress.waitingYields.withLock { $0 } }
        private var writing: Bool { progress.writing.withLock { $0 } }

        /// Leads a write on its own thread that ends once `writeMayEnd` holds, and queues a second append while
        /// that write is in flight; returns once both appends have returned.
        func appendDuringWrite(writeMayEnd: @escaping @Sendable (WriteInFlight) -> Bool) async throws {
            async let leader: Void = onOwnThread {
                self.gate.appendQueued()
                var written = false
                try self.gate.waitUntilWritten(
                    { written },
                    write: {
                        self.progress.writing.withLock { $0 = true }
                        // Spins until the test's condition holds: a condition, not a delay.
                        while !writeMayEnd(self) { _ = sched_yield() }
                        written = true
                    }
                )
                self.progress.leaderReturned.withLock { $0 = true }
            }
            try await onOwnThread {
                while !self.writing { _ = sched_yield() }
                self.gate.appendQueued()
                var written = false
                try self.gate.waitUntilWritten({ written }, write: { written = true })
            }
            try await leader
        }
    }

    @Test("an append that finds a write in flight yields until it ends, and returns without waiting on the condition")
    func waitingAppendYieldsUntilTheWriteEnds() async throws {
        let inFlight = WriteInFlight(yieldsUntilLeaderReturns: true)
        // The write ends once the waiting append has yielded, or once it has given up and waits on the condition.
        try await inFlight.appendDuringWrite { $0.yields > 0 || $0.gate.waitsOnCondition > 0 }
        #expect(inFlight.yields >= 1)
        #expect(inFlight.gate.waitsOnCondition == 0, "the waiting append slept instead of seeing the write end")
        #expect(inFlight.gate.writeCounts.writes == 2, "the waiting append led the next write for its own event")
    }

    @Test("an append whose wait outlasts its yields waits on the condition, and the write's end still wakes it")
    func waitingAppendSleepsAfterItsLastYield() async throws {
        let inFlight = WriteInFlight()
        try await inFlight.appendDuringWrite { $0.gate.waitsOnCondition > 0 }
        #expect(inFlight.yields == SyncedAppendGate.maxWaitingYields)
        #expect(inFlight.gate.waitsOnCondition == 1)
        #expect(inFlight.gate.writeCounts.writes == 2)
    }
}
