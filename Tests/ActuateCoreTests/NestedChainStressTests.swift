import ActuateTestSupport
import ActuateTesting
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ActuateCore

// Stress tests for chains of nested actions, callback and async, across two and three serial queues: A on q1
// performs B on q2, which performs C on q3, which performs D on q1 again, and each completes only when the one it
// performed has. Many chains run in parallel from several threads. A dispatcher that made a nested action wait
// for a queue one of its ancestors holds would deadlock here. The wait fails once no hop has run for a minute (a
// crowded parallel test run only slows the hops down), and the dispatcher's completion watchdog runs on the
// test's virtual clock, so a hang fails the test and names the stuck action instead of stopping the run.

@Suite("Nested action chains under stress")
struct NestedChainStressTests {
    /// Threads that start chains at once.
    private static let threads = 6
    /// Chains each thread starts.
    private static let chainsPerThread = 40

    @Test("chains that go back and forth between two queues all complete, each hop once")
    func chainsAcrossTwoQueues() async throws {
        let report = await Self.run { chain, random in
            let length = 4 + random.next(5)
            let first = chain % 2
            return (0..<length).map { RelayHop(lane: (first + $0) % 2, kind: random.kind()) }
        }
        try report.check()
    }

    @Test("chains that go round three queues, in both directions, all complete, each hop once")
    func chainsAcrossThreeQueues() async throws {
        let report = await Self.run { chain, random in
            let length = 4 + random.next(6)
            let first = chain % 3
            let step = chain % 2 == 0 ? 1 : 2
            return (0..<length).map { RelayHop(lane: (first + step * $0) % 3, kind: random.kind()) }
        }
        try report.check()
        #expect(report.paths.contains { $0.map(\.lane).starts(with: [0, 1, 2, 0]) })
        #expect(report.paths.contains { $0.map(\.lane).starts(with: [0, 2, 1, 0]) })
    }

    @Test("chains that wander over three queues, coming straight back to the queue they are on, all complete")
    func chainsThatReturnToTheirOwnQueue() async throws {
        let report = await Self.run { _, random in
            (0..<(3 + random.next(7))).map { _ in RelayHop(lane: random.next(3), kind: random.kind()) }
        }
        try report.check()
        #expect(report.paths.contains { path in zip(path, path.dropFirst()).contains { $0.lane == $1.lane } })
    }

    /// Starts `threads × chainsPerThread` chains, with paths from `makePath`, on four sessions, and waits for all
    /// for all of them while hops keep running.
    private static func run(
        makePath: @escaping @Sendable (_ chain: Int, inout RelayRandom) -> [RelayHop]
    ) async -> RelayRunReport {
        let scheduler = TestScheduler()
        let diagnostics = RecordingDiagnostics()
        let dispatcher = ActionDispatcher(scheduler: scheduler, diagnostics: diagnostics)
        let recorder = RecordingPlugin()
        dispatcher.add(plugin: recorder)
        let sessions = (0..<4).map { ActionSession(named: "chains-\($0)", dispatcher: dispatcher) }
        let log = RelayLog()
        let total = threads * chainsPerThread
        let paths = (0..<total).map { chain in
            var random = RelayRandom(seed: UInt64(chain))
            return makePath(chain, &random)
        }
        let calls = Mutex<[Int: [Bool]]>([:])

        let finished = await onOwnThread { () -> Bool in
            let group = DispatchGroup()
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for index in 0..<chainsPerThread {
                    let chain = thread * chainsPerThread + index
                    let input = RelayInput(
                        session: sessions[chain % sessions.count],
                        log: log,
                        chain: chain,
                        path: paths[chain],
                        position: 0,
                        lastHopFails: chain % 5 == 0
                    )
                    group.enter()
                    if chain % 2 == 0 {
                        RelayPerformer.perform(input) { succeeded in
                            calls.withLock { $0[chain, default: []].append(succeeded) }
                            group.leave()
                        }
                    } else {
                        RelayPerformer.startAwaiting(input) { succeeded in
                            calls.withLock { $0[chain, default: []].append(succeeded) }
                            group.leave()
                        }
                    }
                }
            }
            return waitWhileProgressing(group) { log.hopCount }
        }
        // The watchdog reports, as a diagnostic, every action that has not completed by the virtual deadline.
        scheduler.advance(by: ActionDispatcher.defaultCompletionTimeout + .seconds(1))
        return RelayRunReport(
            finished: finished,
            paths: paths,
            calls: calls.withLock { $0 },
            visits: log.visits,
            offLane: log.offLane,
            events: recorder.events,
            diagnostics: diagnostics.diagnostics.map { "\($0)" },
            pendingAsyncCompletions: dispatcher.pendingAsyncCompletions
        )
    }
}

/// What a run of chains left behind, and the checks every run must pass.
private struct RelayRunReport {
    var finished: Bool
    var paths: [[RelayHop]]
    /// The outcomes each chain's caller heard.
    var calls: [Int: [Bool]]
    var visits: [Int: [Int]]
    var offLane: [String]
    var events: [RecordingPlugin.Event]
    var diagnostics: [String]
    var pendingAsyncCompletions: Int

    func check(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let stuck = paths.indices.filter { calls[$0] == nil }
        try #require(
            finished,
            "chains never completed (a hang): \(stuck.prefix(5).map { "\($0): \(paths[$0])" }); \(diagnostics.prefix(5))",
            sourceLocation: sourceLocation
        )
        // Every caller heard exactly once, and a chain fails exactly when its last hop fails.
        for chain in paths.indices {
            #expect(calls[chain] == [chain % 5 != 0], "chain \(chain) \(paths[chain])", sourceLocation: sourceLocation)
        }
        // Every hop of every chain ran exactly once, outermost first.
        for (chain, path) in paths.enumerated() {
            #expect(visits[chain] == Array(path.indices), "chain \(chain) \(path)", sourceLocation: sourceLocation)
        }
        #expect(offLane.isEmpty, "\(offLane.prefix(5))", sourceLocation: sourceLocation)
        #expect(diagnostics.isEmpty, "\(diagnostics.prefix(5))", sourceLocation: sourceLocation)
        #expect(pendingAsyncCompletions == 0, sourceLocation: sourceLocation)
        // Plugins heard each hop begin once and complete once.
        var began: [UInt64: Int] = [:]
        var completed: [UInt64: Int] = [:]
        for event in events {
            switch event {
            case .began(let request): began[request.uniqueID, default: 0] += 1
            case .completed(let request, _, _): completed[request.uniqueID, default: 0] += 1
            }
        }
        let hops = paths.map(\.count).reduce(0, +)
        #expect(began.count == hops, sourceLocation: sourceLocation)
        #expect(began == completed, sourceLocation: sourceLocation)
        #expect(began.values.allSatisfy { $0 == 1 }, sourceLocation: sourceLocation)
    }
}

/// A small deterministic generator, so a failing chain can be run again.
struct RelayRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 0x2545_F491_4F6C_DD1D
    }

    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }

    /// A callback or async hop, half and half.
    mutating func kind() -> RelayHop.Kind {
        next(2) == 0 ? .callback : .async
    }
}
